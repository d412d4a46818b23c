import type { Kysely } from "kysely";

/** OTP challenges and the texts of the OTP numbers' threads. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("otp_challenges")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("app_name", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("wrong_texts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", "integer", (c) => c.notNull())
    .addColumn("verified_at", "integer")
    .addColumn("consumed_at", "integer")
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("updated_at", "integer", (c) => c.notNull())
    .execute();
  // The rate limits count by phone and by account over the last minute; texts match by phone.
  await db.schema
    .createIndex("otp_challenges_by_phone")
    .on("otp_challenges")
    .columns(["phone", "created_at"])
    .execute();
  await db.schema
    .createIndex("otp_challenges_by_account")
    .on("otp_challenges")
    .columns(["account_id", "created_at"])
    .execute();

  await db.schema
    .createTable("otp_texts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("otp_number", "text", (c) => c.notNull())
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("direction", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("members", "text")
    .addColumn("outcome", "text")
    .addColumn("challenge_id", "text")
    .addColumn("created_at", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("otp_texts_by_phone").on("otp_texts").columns(["phone", "created_at"]).execute();
  await db.schema.createIndex("otp_texts_by_time").on("otp_texts").column("created_at").execute();
}
