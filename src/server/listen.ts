import { toNodeHandler, type H3 } from "h3";
import { listen, type Listener } from "listhen";
import { AppError } from "../lib/app-error.js";

/** A host listening on a socket. */
export interface ListeningHost {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves an app with listhen, local and quiet (TOOLCHAIN.md): no banner, no tunnel, no
 * clipboard, and a strict port so a busy one is an error rather than a silent move. Port 0
 * picks a free port. Options are passed explicitly: listhen turns public on `--host` in argv.
 */
export async function serveApp(app: H3, host: string, port: number): Promise<ListeningHost> {
  let listener: Listener;
  try {
    listener = await listen(toNodeHandler(app), {
      hostname: host,
      public: false,
      showURL: false,
      qr: false,
      tunnel: false,
      clipboard: false,
      open: false,
      isProd: true,
      autoClose: false,
      port: port === 0 ? { random: true, host } : { port, random: false, alternativePortRange: [port, port], ports: [], host },
    });
  } catch (error) {
    throw new AppError("invalid_request", 400, `Cannot listen on ${host}:${port}: ${(error as Error).message}`);
  }
  const address = listener.address;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    async close() {
      const closing = listener.close();
      // Keep-alive sockets and event streams would hold close() open forever.
      (listener.server as import("node:http").Server).closeAllConnections?.();
      await closing;
    },
  };
}
