import { isEventType, type EventType } from "../../contract/names.js";
import type { EventPayload, EventView } from "../../contract/events.js";
import { invalidRequest, notFound } from "../../lib/app-error.js";
import { isoTime } from "../../lib/clock.js";
import { timeOrderedUuid } from "../../lib/time-ordered-id.js";
import { findEvent, insertEvent, listEventsAfter, type EventRow } from "../../store/core/index.js";
import type { DomainContext } from "./context.js";

export { EVENT_TYPES, type EventType } from "../../contract/names.js";
export type { EventPayload, EventView } from "../../contract/events.js";

/** An event as written to the outbox. `payload` is exactly what receivers get (it has `type`). */
export interface EmittedEvent<T extends EventType = EventType> {
  seq: number;
  id: string;
  accountId: string;
  type: T;
  payload: EventPayload<T>;
  createdAt: number;
}

/** The fields of an event's payload besides `type`. */
export type EventFields<T extends EventType> = Omit<EventPayload<T>, "type">;

/**
 * Writes an event to the outbox. Call it inside the transaction of the state change that caused
 * it: fan-out (webhook deliveries) happens in the same transaction, live listeners after commit.
 */
export function emitEvent<T extends EventType>(
  ctx: DomainContext,
  accountId: string,
  type: T,
  fields: EventFields<T>,
): EmittedEvent<T> {
  const payload = { type, ...fields } as EventPayload<T>;
  const createdAt = ctx.clock.now();
  // Time-ordered: the outbox's id index grows at its end instead of at a random page per event.
  const id = timeOrderedUuid(ctx.ids, createdAt);
  const seq = insertEvent(ctx.db, {
    id,
    account_id: accountId,
    type,
    payload: JSON.stringify(payload),
    created_at: createdAt,
  });
  const event: EmittedEvent<T> = { seq, id, accountId, type, payload, createdAt };
  for (const fanOut of ctx.fanOuts) fanOut(ctx, event as EmittedEvent);
  ctx.db.afterCommit(() => ctx.bus.publish("event", event as EmittedEvent));
  return event;
}

/** An emitted event as the control API shows it. */
export function toEventView(event: EmittedEvent): EventView {
  return {
    id: event.id,
    seq: event.seq,
    type: event.type,
    created_at: isoTime(event.createdAt),
    payload: event.payload,
  };
}

/** An outbox row as the control API shows it. */
function eventRowView(row: EventRow): EventView {
  // Only emitEvent writes the outbox, so a row's type is always an event name.
  return {
    id: row.id,
    seq: row.seq,
    type: row.type as EventType,
    created_at: isoTime(row.created_at),
    payload: JSON.parse(row.payload) as EventPayload,
  };
}

/** The account's events after sequence number `after`, oldest first (or newest first): at most `limit`, of `types` when given. */
export function listEvents(
  ctx: DomainContext,
  accountId: string,
  after: number,
  limit: number,
  options: { order?: "asc" | "desc"; types?: ReadonlySet<EventType> } = {},
): EventView[] {
  const types = options.types ? [...options.types] : undefined;
  return listEventsAfter(ctx.db, after, limit, { accountId, types, newestFirst: options.order === "desc" }).map(
    eventRowView,
  );
}

/** `types=a,b` (a query filter) → a set of event names, or undefined for all; 400 on an unknown name. */
export function parseEventTypes(raw: string | null | undefined, field = "types"): Set<EventType> | undefined {
  if (!raw) return undefined;
  const names = raw
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) return undefined;
  for (const name of names) if (!isEventType(name)) throw invalidRequest(`${field}: unknown event "${name}"`);
  return new Set(names as EventType[]);
}

/** One of the account's events by id (GET /sandbox/v1/events/:id): 404 when unknown or another account's. */
export function getEvent(ctx: DomainContext, accountId: string, id: string): EventView {
  const row = id.length <= 64 ? findEvent(ctx.db, id.toLowerCase()) : undefined;
  if (!row || row.account_id !== accountId) throw notFound(`Event ${id.slice(0, 64)}`);
  return eventRowView(row);
}
