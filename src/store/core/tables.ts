import type { Generated } from "kysely";

/** Rows of the sandbox-wide tables: the outbox of events, the jobs, the clock, idempotency keys and meta values. */

/** An event of the outbox, written in the transaction of the change it reports. */
export interface EventsTable {
  /** Emission order; `webhooks tail` and deliveries follow it. */
  seq: Generated<number>;
  id: string;
  account_id: string;
  type: string;
  /** JSON of the payload, exactly as delivered. */
  payload: string;
  created_at: number;
}

/** A scheduled job: what to run, when, in which lane. */
export interface JobsTable {
  id: Generated<number>;
  kind: string;
  /** JSON. */
  payload: string;
  due_at: number;
  /** Jobs sharing a lane never run at the same time (webhook first attempts per endpoint). */
  lane: string | null;
  status: "pending" | "running" | "failed";
  attempts: number;
  last_error: string | null;
  created_at: number;
}

/** The clock's one row: its mode and, for the manual clock, where it stands. */
export interface ClockStateTable {
  id: number;
  mode: "real" | "manual";
  /** Virtual now for the manual clock. */
  now_ms: number;
  /** The last record timestamp handed out: record timestamps are unique and increasing. */
  last_record_ms: number;
}

/** An idempotency key used on an endpoint, and the resource it made. */
export interface IdempotencyKeysTable {
  account_id: string;
  /** The endpoint the key was used on, e.g. `POST /v1/messages`: keys are scoped per endpoint. */
  endpoint: string;
  key: string;
  resource_id: string;
  created_at: number;
}

/** A sandbox-wide value by key (the seeding time, signing secrets, the OTP numbers and outage). */
export interface MetaTable {
  key: string;
  value: string;
}

/** Every table of the sandbox-wide state, as kysely sees it. */
export interface CoreTables {
  events: EventsTable;
  jobs: JobsTable;
  clock_state: ClockStateTable;
  idempotency_keys: IdempotencyKeysTable;
  meta: MetaTable;
}
