import { sql, type Kysely } from "kysely";

/**
 * Seeded chaos (docs/chaos.md): the chaos in force, the numbering of each account's events and
 * messages, held first attempts, the log of decisions, and on each delivery the kind of chaos
 * that touched it (null for almost all).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("chaos_state")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("seed", "text", (c) => c.notNull())
    .addColumn("profile", "text", (c) => c.notNull())
    .addColumn("since", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("chaos_counters")
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("value", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("chaos_counters_pk", ["account_id", "kind"])
    .execute();
  await db.schema
    .createTable("chaos_messages")
    .addColumn("message_id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("number", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("chaos_log")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("at", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("event_id", "text")
    .addColumn("event_type", "text")
    .addColumn("event_number", "integer")
    .addColumn("webhook_id", "text")
    .addColumn("endpoint_number", "integer")
    .addColumn("delivery_id", "text")
    .addColumn("message_id", "text")
    .addColumn("message_number", "integer")
    .addColumn("number_handle", "text")
    .addColumn("receipt", "text")
    .addColumn("member", "text")
    .addColumn("delay_ms", "integer")
    .execute();
  await db.schema.createIndex("chaos_log_by_account").on("chaos_log").columns(["account_id", "id"]).execute();
  await db.schema
    .createTable("chaos_holds")
    .addColumn("delivery_id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("webhook_id", "text", (c) => c.notNull())
    .addColumn("event_number", "integer", (c) => c.notNull())
    .addColumn("position", "real", (c) => c.notNull())
    .addColumn("release_at", "integer")
    .addColumn("pair_by", "integer")
    .execute();
  await db.schema.createIndex("chaos_holds_by_webhook").on("chaos_holds").columns(["webhook_id", "position"]).execute();
  await db.schema
    .createIndex("chaos_holds_waiting")
    .on("chaos_holds")
    .column("webhook_id")
    .where(sql.ref("pair_by"), "is not", null)
    .execute();
  await db.schema.alterTable("webhook_deliveries").addColumn("chaos", "text").execute();
}
