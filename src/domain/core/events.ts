import { insertEvent } from "../../store/events.js";
import type { DomainContext } from "./context.js";

/** Every event name of spec section 6. */
export const EVENT_TYPES = [
  "message.received",
  "message.sent",
  "message.delivered",
  "message.read",
  "message.edited",
  "message.failed",
  "message.reaction",
  "conversation.typing",
  "conversation.renamed",
] as const;

/** An event name of spec section 6. */
export type EventType = (typeof EVENT_TYPES)[number];

/** True for a known event name. */
export function isEventType(value: unknown): value is EventType {
  return typeof value === "string" && (EVENT_TYPES as readonly string[]).includes(value);
}

/** An event as written to the outbox. `payload` is exactly what receivers get (it has `type`). */
export interface EmittedEvent {
  seq: number;
  id: string;
  accountId: string;
  type: EventType;
  payload: { type: EventType } & Record<string, unknown>;
  createdAt: number;
}

/**
 * Writes an event to the outbox. Call it inside the transaction of the state change that caused
 * it: fan-out (webhook deliveries) happens in the same transaction, live listeners after commit.
 */
export function emitEvent(
  ctx: DomainContext,
  accountId: string,
  type: EventType,
  fields: Record<string, unknown>,
): EmittedEvent {
  const payload = { type, ...fields };
  const id = ctx.ids.uuid();
  const createdAt = ctx.recordTime();
  const seq = insertEvent(ctx.db, { id, account_id: accountId, type, payload: JSON.stringify(payload), created_at: createdAt });
  const event: EmittedEvent = { seq, id, accountId, type, payload, createdAt };
  for (const fanOut of ctx.fanOut) fanOut(ctx, event);
  // Live listeners (tail, wait, the event stream) hear of it once it is committed.
  ctx.db.afterCommit(() => ctx.signals.eventAppended(event));
  return event;
}
