import type { Kysely } from "kysely";

/** Attachments: metadata of uploads and of the copies delivered (the bytes live in the blob store). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("attachments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("message_id", "text")
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("filename", "text", (c) => c.notNull())
    .addColumn("mime_type", "text", (c) => c.notNull())
    .addColumn("size_bytes", "integer", (c) => c.notNull())
    .addColumn("blob", "text")
    .addColumn("upload_content_type", "text")
    .addColumn("upload_expires_at", "integer")
    .addColumn("is_voice_memo", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("media_duration_seconds", "real")
    .addColumn("duration_seconds", "real")
    .addColumn("delivered_blob", "text")
    .addColumn("delivered_size_bytes", "integer")
    .addColumn("delivered_mime_type", "text")
    .addColumn("delivered_filename", "text")
    .addColumn("delivery", "text")
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("updated_at", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("attachments_by_message").on("attachments").columns(["message_id", "position"]).execute();
}
