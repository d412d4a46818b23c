import type { Kysely } from "kysely";

/** The `X-service-Signature` header each webhook attempt carried, for the inspector and the delivery record. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("webhook_attempts").addColumn("signature", "text").execute();
}
