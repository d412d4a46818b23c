import { createParser } from "eventsource-parser";
import type { ActivityChange, Delivery, EventView } from "../contract/types.js";

/** What the activity stream tells (GET /sandbox/v1/activity/stream). */
export interface ActivityHandlers {
  event(event: EventView): void;
  attempt(delivery: Delivery): void;
  changed(change: ActivityChange): void;
  /** A snapshot replaced the whole sandbox: everything shown is out of date. */
  restored(): void;
  /** The connection opened (true) or dropped (false). */
  connection(open: boolean): void;
}

/**
 * Reads the sandbox's activity stream with the account's key, reconnecting after a drop (1 s,
 * doubling to 10 s). EventSource cannot send an Authorization header, so this is fetch and a
 * stream parser. Returns a function that closes it.
 */
export function connectActivity(key: string, handlers: ActivityHandlers): () => void {
  let closed = false;
  let controller: AbortController | undefined;
  let retryMs = 1_000;

  const parser = createParser({
    onEvent(message) {
      const data = JSON.parse(message.data) as unknown;
      if (message.event === "event") handlers.event(data as EventView);
      else if (message.event === "attempt") handlers.attempt(data as Delivery);
      else if (message.event === "changed") handlers.changed(data as ActivityChange);
      else if (message.event === "sandbox.restored") handlers.restored();
    },
  });

  const run = async () => {
    while (!closed) {
      controller = new AbortController();
      try {
        const response = await fetch("/sandbox/v1/activity/stream", {
          headers: { authorization: `Bearer ${key}` },
          signal: controller.signal,
        });
        if (!response.ok || !response.body) throw new Error(`the activity stream answered ${response.status}`);
        handlers.connection(true);
        retryMs = 1_000;
        parser.reset();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
      } catch {
        // Dropped, refused or aborted: told below, then retried unless closed.
      }
      if (closed) return;
      handlers.connection(false);
      await new Promise((resolve) => setTimeout(resolve, retryMs));
      retryMs = Math.min(retryMs * 2, 10_000);
    }
  };
  void run();
  return () => {
    closed = true;
    controller?.abort();
  };
}
