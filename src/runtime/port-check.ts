import { createServer, type Server } from "node:net";
import { listenError } from "../lib/listen-error.js";

function listen(host: string, port: number): Promise<Server> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host, port }, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * Fails as the hosts' own bind would (server/listen.ts) when a fixed port cannot be listened on
 * (0 picks a free one: nothing to check), before the database is opened: a start that cannot
 * serve must not leave a new database file behind. The ports are held together, so two equal
 * ports clash here too, then let go for the hosts. The hosts' bind stays the last word: a port
 * taken in the moment between is still refused there, only later.
 */
export async function assertPortsFree(host: string, ports: readonly number[]): Promise<void> {
  const held: Server[] = [];
  try {
    for (const port of ports.filter((p) => p !== 0)) {
      try {
        held.push(await listen(host, port));
      } catch (error) {
        throw listenError(host, port, error);
      }
    }
  } finally {
    await Promise.all(held.map(close));
  }
}
