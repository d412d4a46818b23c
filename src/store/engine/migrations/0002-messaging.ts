import type { Kysely } from "kysely";

/** Conversations and participants, messages, pending actions (react/edit/unsend), per-number faults. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("conversations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("from_handle", "text", (c) => c.notNull())
    .addColumn("remote_handle", "text")
    .addColumn("service", "text", (c) => c.notNull())
    .addColumn("is_group", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("title", "text")
    .addColumn("channel", "text")
    .addColumn("inbound_at", "integer")
    .addColumn("last_message_at", "integer", (c) => c.notNull())
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("updated_at", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("conversations_one_to_one")
    .on("conversations")
    .columns(["account_id", "from_handle", "remote_handle", "service"])
    .execute();
  await db.schema
    .createIndex("conversations_by_last_message")
    .on("conversations")
    .columns(["account_id", "last_message_at"])
    .execute();

  await db.schema
    .createTable("conversation_participants")
    .addColumn("conversation_id", "text", (c) => c.notNull().references("conversations.id").onDelete("cascade"))
    .addColumn("handle", "text", (c) => c.notNull())
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("conversation_participants_pk", ["conversation_id", "handle"])
    .execute();

  await db.schema
    .createTable("messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("conversation_id", "text", (c) => c.notNull())
    .addColumn("direction", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("channel", "text")
    .addColumn("number_handle", "text", (c) => c.notNull())
    .addColumn("remote_handle", "text", (c) => c.notNull())
    .addColumn("requested_channel", "text")
    .addColumn("text", "text")
    .addColumn("effect", "text")
    .addColumn("reply_to", "text")
    .addColumn("error", "text")
    .addColumn("metadata", "text")
    .addColumn("has_attachments", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("voice_memo", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("media_quality", "text", (c) => c.notNull().defaultTo("fit"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("first_attempt_at", "integer")
    .addColumn("backoff_ms", "integer", (c) => c.notNull())
    .addColumn("next_attempt_at", "integer")
    .addColumn("generation", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("sent_at", "integer")
    .addColumn("delivered_at", "integer")
    .addColumn("read_at", "integer")
    .addColumn("edited_at", "integer")
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("updated_at", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("messages_by_account").on("messages").columns(["account_id", "created_at"]).execute();
  await db.schema
    .createIndex("messages_by_conversation")
    .on("messages")
    .columns(["conversation_id", "created_at"])
    .execute();

  await db.schema
    .createTable("message_actions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("message_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("reaction", "text")
    .addColumn("remove", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("text", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("first_attempt_at", "integer")
    .addColumn("backoff_ms", "integer", (c) => c.notNull())
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("updated_at", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("message_actions_by_message")
    .on("message_actions")
    .columns(["message_id", "created_at"])
    .execute();

  await db.schema
    .createTable("number_faults")
    .addColumn("handle", "text", (c) => c.primaryKey())
    .addColumn("offline", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("transient_remaining", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("rate_limited", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("rate_limit_level", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("rate_limited_until", "integer")
    .addColumn("relink_required", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "integer", (c) => c.notNull())
    .execute();
}
