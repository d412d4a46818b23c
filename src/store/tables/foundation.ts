import type { Generated } from "kysely";

/** Rows of the foundation's tables: accounts, keys, numbers, contacts, the outbox, jobs, clock. */

export interface AccountsTable {
  id: string;
  name: string;
  app_name: string;
  otp_suspended: number;
  /** Order in the fixture: the first account is the default one for commands. */
  position: number;
  created_at: number;
}

export interface ApiKeysTable {
  /** SHA-256 hex of the key; keys are never stored in clear. */
  key_hash: string;
  account_id: string;
  kind: "messaging" | "otp";
  /** First characters of the key, for people to recognise it. */
  hint: string;
  created_at: number;
}

export interface NumbersTable {
  handle: string;
  account_id: string;
  /** JSON array of channel names. */
  channels: string;
  label: string;
  whatsapp_api: "linked" | "cloud" | null;
  position: number;
  created_at: number;
}

export interface ContactsTable {
  handle: string;
  imessage: number;
  platform: "ios" | "android";
  whatsapp: number;
  reachable: number;
  read_receipts: number;
  created_at: number;
  updated_at: number;
}

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

export interface ClockStateTable {
  id: number;
  mode: "real" | "manual";
  /** Virtual now for the manual clock. */
  now_ms: number;
  /** The last record timestamp handed out: record timestamps are unique and increasing. */
  last_record_ms: number;
}

export interface IdempotencyKeysTable {
  account_id: string;
  /** The endpoint the key was used on, e.g. `POST /v1/messages`: keys are scoped per endpoint. */
  endpoint: string;
  key: string;
  resource_id: string;
  created_at: number;
}

export interface MetaTable {
  key: string;
  value: string;
}

export interface FoundationTables {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  numbers: NumbersTable;
  contacts: ContactsTable;
  events: EventsTable;
  jobs: JobsTable;
  clock_state: ClockStateTable;
  idempotency_keys: IdempotencyKeysTable;
  meta: MetaTable;
}
