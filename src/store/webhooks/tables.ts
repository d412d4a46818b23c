/** Rows of the webhook tables: endpoints, deliveries and their attempts. */

/** An account's webhook endpoint. */
export interface WebhooksTable {
  id: string;
  account_id: string;
  url: string;
  /** JSON array of event names; every name when the endpoint was created without a list. */
  events: string;
  /** Kept in clear: it is the HMAC key of every signature. */
  secret: string;
  enabled: number;
  created_at: number;
  updated_at: number;
  /** Set by DELETE: the row stays so that its deliveries stay listed. */
  deleted_at: number | null;
}

/** One event's delivery to one endpoint, with where it stands on the retry ladder. */
export interface WebhookDeliveriesTable {
  id: string;
  account_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: "pending" | "succeeded" | "failed" | "abandoned" | "dropped";
  /** Attempts made so far (the next one is number attempt_count + 1). */
  attempt_count: number;
  /** Virtual time of the next attempt while pending, else null. */
  next_attempt_at: number | null;
  /** The scheduler job of the next attempt, removed when the delivery is abandoned. */
  job_id: number | null;
  /** The seeded chaos that touched it: a copy (`duplicate`), or a first attempt `reordered` or `delayed`; else null. */
  chaos: "duplicate" | "reordered" | "delayed" | null;
  created_at: number;
  updated_at: number;
}

/** One attempt of a delivery: when, what came back, how long it took. */
export interface WebhookAttemptsTable {
  delivery_id: string;
  /** The attempt's place among all of the delivery's attempts, from 1 (1-8 without resends). */
  n: number;
  /** Virtual time the attempt started (exact clock instant, never bumped). */
  at: number;
  status_code: number | null;
  error: string | null;
  /** Real milliseconds the attempt took. */
  duration_ms: number;
  /** 1 for an attempt made by hand (a resend), outside the retry ladder. */
  resend: number;
  /** The `X-service-Signature` header sent; null when no request went out (dropped, unresolved). */
  signature: string | null;
}

/** Every table of the webhooks, as kysely sees it. */
export interface WebhookTables {
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
