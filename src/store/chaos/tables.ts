import type { Generated } from "kysely";

/**
 * Rows of seeded chaos: whether it is on and with what, the numbering of the work it decides on,
 * the deliveries it holds back, and the log of every decision that took effect. They live in the
 * database so that a restart and a snapshot keep them with the work they concern.
 */

/** Chaos in force: one row (id 1) while it is on, none while it is off. */
export interface ChaosStateTable {
  id: number;
  /** JSON of the seed as it was given: a string or an integer. */
  seed: string;
  profile: string;
  /** Virtual time it was switched on. */
  since: number;
}

/** The last number given to an account's events or messages since chaos was switched on. */
export interface ChaosCountersTable {
  account_id: string;
  kind: "event" | "message";
  value: number;
}

/** The number a message was given in its account (its identity for every decision about it). */
export interface ChaosMessagesTable {
  message_id: string;
  account_id: string;
  number: number;
}

/** A decision that took effect, as `GET /sandbox/v1/chaos/log` shows it. */
export interface ChaosLogTable {
  id: Generated<number>;
  account_id: string;
  /** Virtual time of the decision. */
  at: number;
  kind: string;
  event_id: string | null;
  event_type: string | null;
  event_number: number | null;
  webhook_id: string | null;
  endpoint_number: number | null;
  delivery_id: string | null;
  message_id: string | null;
  message_number: number | null;
  /** The account's number a send fault concerns. */
  number_handle: string | null;
  /** `delivered` or `read`, for a lost receipt. */
  receipt: string | null;
  /** The group member whose receipt was lost. */
  member: string | null;
  delay_ms: number | null;
}

/**
 * A first attempt held back (delayed, or waiting to swap with the next one), or queued behind
 * one that is: an endpoint's held deliveries go out in `position` order, each once nothing
 * before it is held and its own times have passed.
 */
export interface ChaosHoldsTable {
  delivery_id: string;
  account_id: string;
  webhook_id: string;
  /** Its event's number in the account, for the log of what becomes of it. */
  event_number: number;
  /** Order among the endpoint's held deliveries (a swap places a delivery between two others). */
  position: number;
  /** The end of its extra wait; null when it has none. */
  release_at: number | null;
  /** While it waits to swap with the next event to the endpoint: when it stops waiting. */
  pair_by: number | null;
}

/** Every table of seeded chaos, as kysely sees it. */
export interface ChaosTables {
  chaos_state: ChaosStateTable;
  chaos_counters: ChaosCountersTable;
  chaos_messages: ChaosMessagesTable;
  chaos_log: ChaosLogTable;
  chaos_holds: ChaosHoldsTable;
}
