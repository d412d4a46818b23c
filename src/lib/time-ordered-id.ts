import type { IdSource } from "./ids.js";

/**
 * A UUID whose first 48 bits are a millisecond time (the UUIDv7 layout, RFC 9562), the rest from
 * `ids`. Ids made from increasing record times sort in creation order, so inserting a row appends
 * to the primary-key index instead of dirtying a random page (the send endpoint's hot path).
 */
export function timeOrderedUuid(ids: IdSource, ms: number): string {
  const random = ids.uuid();
  const time = Math.max(0, Math.floor(ms)).toString(16).padStart(12, "0").slice(-12);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}
