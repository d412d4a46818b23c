/**
 * Names the CLI checks before it sends them (event names, snapshot names), defined once without
 * zod: a client command loads only what it uses, and the contract's schemas are not among that.
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

/** What a snapshot's name may be made of: 1 to 64 letters, digits, dots, dashes and underscores. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9._-]{1,64}$/;
