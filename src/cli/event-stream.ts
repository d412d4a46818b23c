import { createParser } from "eventsource-parser";
import type { EventView } from "../contract/index.js";

/** Reads a server-sent event stream of the control API, yielding each event's JSON data. */
export async function* readEventStream<T = EventView>(response: Response): AsyncGenerator<T> {
  if (!response.body) return;
  const queue: T[] = [];
  const parser = createParser({
    onEvent(message) {
      if (message.data) queue.push(JSON.parse(message.data) as T);
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    while (queue.length > 0) yield queue.shift() as T;
  }
}
