/**
 * The event names, defined once without zod: the CLI checks a name the user typed against them
 * without loading the contract's schemas (a client command loads only what it uses).
 */

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
