import type { Kysely } from "kysely";

/** Webhook endpoints, deliveries and attempts. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("webhooks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("enabled", "integer", (c) => c.notNull())
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("updated_at", "integer", (c) => c.notNull())
    .addColumn("deleted_at", "integer")
    .execute();
  await db.schema.createIndex("webhooks_by_account").on("webhooks").columns(["account_id", "created_at"]).execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("webhook_id", "text", (c) => c.notNull().references("webhooks.id").onDelete("cascade"))
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("event_type", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempt_count", "integer", (c) => c.notNull())
    .addColumn("next_attempt_at", "integer")
    .addColumn("job_id", "integer")
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("updated_at", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("deliveries_by_account")
    .on("webhook_deliveries")
    .columns(["account_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("deliveries_by_webhook")
    .on("webhook_deliveries")
    .columns(["webhook_id", "status"])
    .execute();

  await db.schema
    .createTable("webhook_attempts")
    .addColumn("delivery_id", "text", (c) => c.notNull().references("webhook_deliveries.id").onDelete("cascade"))
    .addColumn("n", "integer", (c) => c.notNull())
    .addColumn("at", "integer", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("error", "text")
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("webhook_attempts_pk", ["delivery_id", "n"])
    .execute();
}
