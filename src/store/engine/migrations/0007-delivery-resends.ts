import type { Kysely } from "kysely";

/** Resends (`POST /sandbox/v1/deliveries/:id/resend`): an attempt made by hand, outside the retry ladder. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("webhook_attempts")
    .addColumn("resend", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}
