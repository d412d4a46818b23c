import type { Kysely } from "kysely";

/** Accounts, keys, numbers, contacts, the event outbox, jobs, clock state, idempotency keys. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("accounts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("app_name", "text", (c) => c.notNull())
    .addColumn("otp_suspended", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("created_at", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("api_keys")
    .addColumn("key_hash", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("hint", "text", (c) => c.notNull())
    .addColumn("created_at", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("numbers")
    .addColumn("handle", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("channels", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("whatsapp_api", "text")
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("created_at", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("numbers_by_account").on("numbers").columns(["account_id", "position"]).execute();

  await db.schema
    .createTable("contacts")
    .addColumn("handle", "text", (c) => c.primaryKey())
    .addColumn("imessage", "integer", (c) => c.notNull())
    .addColumn("platform", "text", (c) => c.notNull())
    .addColumn("whatsapp", "integer", (c) => c.notNull())
    .addColumn("reachable", "integer", (c) => c.notNull())
    .addColumn("read_receipts", "integer", (c) => c.notNull())
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("updated_at", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("events")
    .addColumn("seq", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("id", "text", (c) => c.notNull().unique())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("created_at", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("events_by_account").on("events").columns(["account_id", "seq"]).execute();

  await db.schema
    .createTable("jobs")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("due_at", "integer", (c) => c.notNull())
    .addColumn("lane", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("created_at", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("jobs_due").on("jobs").columns(["status", "due_at", "id"]).execute();

  await db.schema
    .createTable("clock_state")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("now_ms", "integer", (c) => c.notNull())
    .addColumn("last_record_ms", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("idempotency_keys")
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("endpoint", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("resource_id", "text", (c) => c.notNull())
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_keys_pk", ["account_id", "endpoint", "key"])
    .execute();

  await db.schema
    .createTable("meta")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
}
