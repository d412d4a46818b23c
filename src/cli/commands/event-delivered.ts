import type { MsgctlClient } from "../../client/client.js";
import { firstAttemptFinished } from "../../client/delivered.js";
import type { Delivery, EventView } from "../../contract/index.js";
import { readEventStream } from "../event-stream.js";

/** Every delivery of one event (one per endpoint subscribed when it was emitted), page after page. */
async function deliveriesOf(client: MsgctlClient, eventId: string): Promise<Delivery[]> {
  const all: Delivery[] = [];
  for (let before: string | undefined; ; ) {
    const page = await client.webhooks.deliveries({ event_id: eventId, limit: 100, before });
    all.push(...page.data);
    if (!page.hasMore || page.data.length === 0) return all;
    before = page.data.at(-1)?.created_at;
  }
}

/** True for an activity frame that may have finished one of the event's first attempts. */
function mayHaveFinished(frame: unknown, eventId: string): boolean {
  const data = frame as { event_id?: unknown; clock?: unknown };
  // An attempt of this event recorded, or anything written (a `changed` frame: an endpoint deleted).
  return data.event_id === eventId || data.clock !== undefined;
}

/**
 * `wait event … --delivered`: resolves once the event's first attempt to every endpoint that
 * subscribed to it has finished (acknowledged, failed, timed out or dropped) and is recorded,
 * or will never be made (abandoned with its endpoint). The activity stream is opened before the
 * first look, so that nothing finishing in between is missed; `progress` hears how many are done.
 * False when the stream closed first.
 */
export async function waitUntilDelivered(
  client: MsgctlClient,
  event: EventView,
  signal: AbortSignal,
  progress: (finished: number, total: number) => void,
): Promise<boolean> {
  const frames = readEventStream<unknown>(await client.sandbox.activity({ signal }))[Symbol.asyncIterator]();
  try {
    for (;;) {
      const deliveries = await deliveriesOf(client, event.id);
      const finished = deliveries.filter(firstAttemptFinished).length;
      progress(finished, deliveries.length);
      if (finished === deliveries.length) return true;
      for (;;) {
        const next = await frames.next();
        if (next.done) return false;
        if (mayHaveFinished(next.value, event.id)) break;
      }
    }
  } finally {
    await frames.return?.(undefined);
  }
}
