import type { Kysely, Selectable, Updateable } from "kysely";
import { allColumns, compileOnce } from "../engine/compiled-query.js";
import type { Db } from "../engine/db.js";
import type { Database } from "../engine/schema.js";
import type { MessagesTable } from "./tables.js";

/** A message row as read back. */
export type MessageRow = Selectable<MessagesTable>;

/** Changes to a message row. */
export type MessageChanges = Updateable<MessagesTable>;

const COLUMNS = allColumns<MessagesTable>()([
  "id",
  "account_id",
  "conversation_id",
  "direction",
  "status",
  "channel",
  "number_handle",
  "remote_handle",
  "requested_channel",
  "text",
  "effect",
  "reply_to",
  "error",
  "metadata",
  "has_attachments",
  "voice_memo",
  "media_quality",
  "attempts",
  "first_attempt_at",
  "backoff_ms",
  "next_attempt_at",
  "generation",
  "sent_at",
  "delivered_at",
  "read_at",
  "edited_at",
  "created_at",
  "updated_at",
]);

const insertQuery = compileOnce<unknown[], unknown>((q, arg) =>
  q.insertInto("messages").values(Object.fromEntries(COLUMNS.map((column, i) => [column, arg(i)])) as MessagesTable),
);

/** Inserts a message (the send endpoint's hot path: SQL compiled once). */
export function insertMessage(db: Db, row: MessagesTable): void {
  db.run(insertQuery(...COLUMNS.map((column) => row[column])));
}

const byId = compileOnce<[string], MessageRow>((q, arg) =>
  q.selectFrom("messages").selectAll().where("id", "=", arg(0)),
);

/** A message by id, whichever account owns it (jobs). */
export function findMessageById(db: Db, id: string): MessageRow | undefined {
  return db.first(byId(id));
}

const byAccountAndId = compileOnce<[string, string], MessageRow>((q, arg) =>
  q.selectFrom("messages").selectAll().where("id", "=", arg(0)).where("account_id", "=", arg(1)),
);

/** The account's message with this id. */
export function findAccountMessage(db: Db, accountId: string, id: string): MessageRow | undefined {
  return db.first(byAccountAndId(id, accountId));
}

/** Applies changes to a message other than its status (the messages' status table writes that, `saveLifecycle`). */
export function updateMessage(db: Db, id: string, changes: Omit<MessageChanges, "status">): void {
  db.run(db.q.updateTable("messages").set(changes).where("id", "=", id));
}

/** The columns the status lifecycle moves. */
const LIFECYCLE = [
  "status",
  "channel",
  "error",
  "attempts",
  "first_attempt_at",
  "backoff_ms",
  "next_attempt_at",
  "generation",
  "sent_at",
  "delivered_at",
  "read_at",
  "updated_at",
] as const satisfies readonly (keyof MessagesTable)[];

/** A column the status lifecycle moves. */
export type LifecycleColumn = (typeof LIFECYCLE)[number];

const lifecycleUpdate = compileOnce<unknown[], unknown>((q, arg) =>
  q
    .updateTable("messages")
    .set(Object.fromEntries(LIFECYCLE.map((column, i) => [column, arg(i)])) as MessageChanges)
    .where("id", "=", arg(LIFECYCLE.length)),
);

/** Writes a message's lifecycle columns from the row (every transition: SQL compiled once). */
export function saveLifecycle(db: Db, row: MessageRow): void {
  db.run(lifecycleUpdate(...LIFECYCLE.map((column) => row[column]), row.id));
}

/** What `moveConversationMessages` moves: the messages of one direction at these statuses. */
export interface ConversationMove {
  direction: MessagesTable["direction"];
  from: readonly MessagesTable["status"][];
  to: MessagesTable["status"];
  /** Timestamp columns set to `at`. */
  stamps: readonly ("sent_at" | "delivered_at" | "read_at")[];
  at: number;
}

/** Moves a conversation's messages of one direction from some statuses to another; returns how many moved. */
export function moveConversationMessages(db: Db, conversationId: string, move: ConversationMove): number {
  const changes: MessageChanges = { status: move.to, updated_at: move.at };
  for (const stamp of move.stamps) changes[stamp] = move.at;
  return db.run(
    db.q
      .updateTable("messages")
      .set(changes)
      .where("conversation_id", "=", conversationId)
      .where("direction", "=", move.direction)
      .where("status", "in", move.from),
  ).changes;
}

/**
 * The columns a Message resource shows (domain/messages/views.ts): a page reads these and not the
 * retry bookkeeping, which halves SQLite's work per row (bench/HISTORY.md, a million messages).
 */
const VIEW_COLUMNS = [
  "id",
  "conversation_id",
  "direction",
  "status",
  "channel",
  "text",
  "effect",
  "reply_to",
  "error",
  "metadata",
  "has_attachments",
  "sent_at",
  "delivered_at",
  "read_at",
  "edited_at",
  "created_at",
] as const satisfies readonly (keyof MessagesTable)[];

/** A message row with the columns its resource shows. */
export type MessageViewRow = Pick<MessageRow, (typeof VIEW_COLUMNS)[number]>;

/** A row of a page: whether the message is a copy of a group message comes with it (1 or 0). */
export type MessagePageRow = MessageViewRow & { in_group: number };

/** Before every message: a page without a cursor shares the cursor's SQL. */
const NO_CURSOR = Number.MAX_SAFE_INTEGER;

// Asked inside the page's SQL rather than per row afterwards: a page of outbound messages
// otherwise paid a statement per row to learn which list receipts.
const pageColumns = (q: Kysely<Database>) =>
  q
    .selectFrom("messages")
    .select(VIEW_COLUMNS)
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom("group_messages")
            .select("group_messages.message_id")
            .whereRef("group_messages.message_id", "=", "messages.id"),
        )
        .as("in_group"),
    );

const pageOfAccount = compileOnce<[string, number, number], MessagePageRow>((q, arg) =>
  pageColumns(q)
    .where("account_id", "=", arg(0))
    .where("created_at", "<", arg(1))
    .orderBy("created_at", "desc")
    .limit(arg(2)),
);

const pageOfConversation = compileOnce<[string, number, number], MessagePageRow>((q, arg) =>
  pageColumns(q)
    .where("conversation_id", "=", arg(0))
    .where("created_at", "<", arg(1))
    .orderBy("created_at", "desc")
    .limit(arg(2)),
);

/** The account's messages, newest first, optionally in one conversation and before a created_at. */
export function listMessageRows(
  db: Db,
  accountId: string,
  options: { conversationId?: string; before?: number; limit: number },
): MessagePageRow[] {
  const before = options.before ?? NO_CURSOR;
  return db.all(
    options.conversationId
      ? pageOfConversation(options.conversationId, before, options.limit)
      : pageOfAccount(accountId, before, options.limit),
  );
}
