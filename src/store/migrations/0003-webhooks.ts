import type { Kysely } from "kysely";

/** Webhook endpoints, deliveries and attempts: filled in by the webhooks issue. */
export async function up(_db: Kysely<unknown>): Promise<void> {}
