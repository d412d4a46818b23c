import type { MsgctlClient } from "../../client/client.js";
import type { Delivery, EventType, EventView } from "../../contract/index.js";
import { subsetMismatches } from "../json-subset.js";
import { brief } from "./context.js";

// A scenario's events are few; past this many the oldest are not looked at.
const MOST_EVENTS = 5_000;

/** The file's events (after `since`), oldest first, of one type or all. */
export async function eventsSince(client: MsgctlClient, since: number, type?: EventType): Promise<EventView[]> {
  const all: EventView[] = [];
  for (let after = since; all.length < MOST_EVENTS; ) {
    const page = await client.sandbox.events({ after, limit: 100, types: type ? [type] : undefined });
    all.push(...page.data);
    const last = page.data.at(-1);
    if (!page.hasMore || !last) break;
    after = last.seq;
  }
  return all;
}

/** The outbox position now: events after it are new. */
export async function latestSeq(client: MsgctlClient): Promise<number> {
  const page = await client.sandbox.events({ limit: 1, order: "desc" });
  return page.data[0]?.seq ?? 0;
}

/** Every delivery of one event (one per endpoint subscribed when it was emitted). */
export async function deliveriesOf(client: MsgctlClient, eventId: string): Promise<Delivery[]> {
  const all: Delivery[] = [];
  for (let before: string | undefined; ; ) {
    const page = await client.webhooks.deliveries({ event_id: eventId, limit: 100, before });
    all.push(...page.data);
    if (!page.hasMore || page.data.length === 0) return all;
    before = page.data.at(-1)?.created_at;
  }
}

/** The events whose payload contains `match`. */
export const matching = (events: EventView[], match: Record<string, unknown> | undefined) =>
  events.filter((event) => subsetMismatches(match ?? {}, event.payload).length === 0);

/**
 * The events nearest to what was expected, for a failure's "seen": those of the type, those
 * agreeing with most of `match` first, at most `limit`; or, when none of that type came, the
 * file's latest events of any type.
 */
export async function nearestEvents(
  client: MsgctlClient,
  since: number,
  type: EventType,
  match: Record<string, unknown> | undefined,
  limit = 3,
): Promise<string[]> {
  const ofType = await eventsSince(client, since, type);
  if (ofType.length === 0) {
    const any = (await eventsSince(client, since)).slice(-5);
    return [
      `no ${type} event since the file started`,
      ...(any.length > 0
        ? [
            "its latest events:",
            ...any.map((event) => `  ${event.type} at ${event.created_at} ${brief(event.payload)}`),
          ]
        : ["and no event of any kind"]),
    ];
  }
  const ranked = ofType
    .map((event) => ({ event, off: subsetMismatches(match ?? {}, event.payload) }))
    .sort((a, b) => a.off.length - b.off.length)
    .slice(0, limit);
  return [
    `${ofType.length} ${type} event(s); the nearest:`,
    ...ranked.flatMap(({ event, off }) => [
      `  ${event.id} at ${event.created_at} ${brief(event.payload)}`,
      ...off.map(
        (m) =>
          `    ${m.path || "payload"}: expected ${JSON.stringify(m.expected)}, seen ${m.seen === undefined ? "nothing" : JSON.stringify(m.seen)}`,
      ),
    ]),
  ];
}

/** A message's history: the file's events about it, in order. */
export async function messageHistory(client: MsgctlClient, since: number, messageId: string): Promise<string[]> {
  const events = (await eventsSince(client, since)).filter(
    (event) => (event.payload as { message_id?: string }).message_id === messageId,
  );
  return events.length === 0
    ? ["no event about it since the file started"]
    : events.map((event) => `  ${event.created_at} ${event.type}`);
}

/** A delivery in lines: its status, each attempt, the next one. */
export function deliveryLines(delivery: Delivery): string[] {
  return [
    `  delivery ${delivery.id} to endpoint ${delivery.webhook_id}: ${delivery.status}`,
    ...delivery.attempts.map(
      (attempt) =>
        `    attempt ${attempt.n} at ${attempt.at}: ${attempt.status_code ?? "no answer"}${attempt.error ? ` (${attempt.error})` : ""}`,
    ),
    ...(delivery.next_attempt_at ? [`    next attempt at ${delivery.next_attempt_at}`] : []),
  ];
}
