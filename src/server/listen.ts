import { createServer } from "node:http";
import { toNodeHandler, type H3 } from "h3";
import { listenError } from "../lib/listen-error.js";
import { answerProtocolErrors } from "./client-error.js";

/** A host listening on a socket. */
export interface ListeningHost {
  url: string;
  port: number;
  /** The address bound (`0.0.0.0` for every interface): what the network can reach. */
  address: string;
  close(): Promise<void>;
}

/**
 * Serves an app on node:http. A busy port is an error, never a silent move; port 0 picks a free
 * one. Requests node refuses itself (malformed HTTP, headers over 16 KiB, CONNECT) are answered in
 * the spec's error shape (client-error.ts); an `Expect` other than 100-continue and a missing
 * `Host` reach the app like any request instead of node's bare 417 and 400.
 */
export async function serveApp(app: H3, host: string, port: number): Promise<ListeningHost> {
  const handler = toNodeHandler(app);
  const server = createServer({ requireHostHeader: false }, handler);
  server.on("checkExpectation", handler);
  answerProtocolErrors(server);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen({ host, port }, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    throw listenError(host, port, error);
  }
  const address = server.address();
  const boundPort = typeof address === "object" && address ? address.port : port;
  const boundAddress = typeof address === "object" && address ? address.address : host;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${boundPort}`,
    port: boundPort,
    address: boundAddress,
    async close() {
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive sockets and event streams would hold close() open forever.
      server.closeAllConnections();
      await closing;
    },
  };
}
