import { createParser } from "eventsource-parser";
import { ConnectionError } from "../client/http.js";
import type { EventView } from "../contract/index.js";

/**
 * Reads a server-sent event stream of the control API, yielding each event's JSON data. A stream
 * cut off by the sandbox stopping (undici's "terminated") is a ConnectionError, as a request to a
 * stopped sandbox is; an abort of the caller's own signal is rethrown as it is.
 */
export async function* readEventStream<T = EventView>(response: Response): AsyncGenerator<T> {
  if (!response.body) return;
  const queue: T[] = [];
  const parser = createParser({
    onEvent(message) {
      if (message.data) queue.push(JSON.parse(message.data) as T);
    },
  });
  const decoder = new TextDecoder();
  const chunks = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await chunks.next();
      } catch (error) {
        if ((error as Error)?.name === "AbortError") throw error;
        const where = response.url ? new URL(response.url).origin : "its address";
        throw new ConnectionError(where, Object.assign(new Error("the sandbox went away"), { cause: error }));
      }
      if (next.done) return;
      parser.feed(decoder.decode(next.value, { stream: true }));
      while (queue.length > 0) yield queue.shift() as T;
    }
  } finally {
    // A reader that stops early (a wait that matched) lets go of the connection.
    await chunks.return?.().catch(() => {});
  }
}
