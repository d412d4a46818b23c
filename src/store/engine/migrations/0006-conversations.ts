import type { Kysely } from "kysely";

/**
 * Group chats (spec 4.5): the account's groups with their members, which conversation (one per
 * member number) belongs to which group, the copies of each group message and its per-member
 * receipts; the account's typing bubble and read mark on every conversation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("chat_groups")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("title", "text")
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("updated_at", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("chat_group_members")
    .addColumn("group_id", "text", (c) => c.notNull().references("chat_groups.id").onDelete("cascade"))
    .addColumn("handle", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("chat_group_members_pk", ["group_id", "handle"])
    .execute();

  await db.schema.alterTable("conversations").addColumn("group_id", "text").execute();
  await db.schema.alterTable("conversations").addColumn("typing_until", "integer").execute();
  await db.schema.alterTable("conversations").addColumn("last_read_at", "integer").execute();
  await db.schema.createIndex("conversations_by_group").on("conversations").columns(["group_id"]).execute();

  await db.schema
    .createTable("group_messages")
    // Cascades: whatever removes a message (an account's deletion) removes its group rows too.
    .addColumn("message_id", "text", (c) => c.primaryKey().references("messages.id").onDelete("cascade"))
    .addColumn("group_id", "text", (c) => c.notNull())
    .addColumn("origin_id", "text", (c) => c.notNull())
    .addColumn("created_at", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("group_messages_by_origin").on("group_messages").columns(["origin_id"]).execute();

  await db.schema
    .createTable("group_receipts")
    .addColumn("message_id", "text", (c) => c.notNull().references("messages.id").onDelete("cascade"))
    .addColumn("handle", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("delivered_at", "integer")
    .addColumn("read_at", "integer")
    .addPrimaryKeyConstraint("group_receipts_pk", ["message_id", "handle"])
    .execute();
}
