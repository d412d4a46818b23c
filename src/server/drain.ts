import type { Duplex } from "node:stream";

/** How long, and how much, a refused request may still be read so that its answer arrives. */
const DRAIN_MS = 5_000;
const DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * Ends our side of the connection (after `last`, when given) and goes on reading and dropping
 * what the client still sends, until it ends its side, 5 s pass or 16 MiB arrive; then closes.
 * Closing with unread data would reset the connection, and a client still writing its request
 * (a 70 KB header, a 3 MB body) would lose the answer already sent.
 */
export function endAndDrain(socket: Duplex, last?: string): void {
  if (last === undefined) socket.end();
  else socket.end(last);
  let drained = 0;
  const timer = setTimeout(() => socket.destroy(), DRAIN_MS);
  timer.unref();
  socket.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_BYTES) socket.destroy();
  });
  socket.once("close", () => clearTimeout(timer));
  socket.resume();
}

/**
 * For a request answered before its body was read: when node closes the connection after the
 * answer (the client sent `Connection: close`), it drains first instead of closing at once.
 */
export function drainBeforeClosing(socket: Duplex & { destroySoon?: () => void }): void {
  socket.destroySoon = () => endAndDrain(socket);
}
