import { sql, type Selectable } from "kysely";
import { allColumns, compileOnce } from "../engine/compiled-query.js";
import type { Db } from "../engine/db.js";
import type { ConversationsTable } from "./tables.js";

/** A conversation row as read back. */
export type ConversationRow = Selectable<ConversationsTable>;

const oneToOne = compileOnce<[string, string, string, string], ConversationRow>((q, arg) =>
  q
    .selectFrom("conversations")
    .selectAll()
    .where("account_id", "=", arg(0))
    .where("from_handle", "=", arg(1))
    .where("remote_handle", "=", arg(2))
    .where("service", "=", arg(3))
    .where("is_group", "=", 0),
);

/** The one-to-one thread between an account's number and a contact on a service, if any. */
export function findOneToOne(
  db: Db,
  accountId: string,
  fromHandle: string,
  remoteHandle: string,
  service: ConversationsTable["service"],
): ConversationRow | undefined {
  return db.first(oneToOne(accountId, fromHandle, remoteHandle, service));
}

/** The one-to-one threads between a number and a contact, newest activity first. */
export function listOneToOnes(db: Db, accountId: string, fromHandle: string, remoteHandle: string): ConversationRow[] {
  return db.all(
    db.q
      .selectFrom("conversations")
      .selectAll()
      .where("account_id", "=", accountId)
      .where("from_handle", "=", fromHandle)
      .where("remote_handle", "=", remoteHandle)
      .where("is_group", "=", 0)
      .orderBy("last_message_at", "desc"),
  );
}

const byAccountAndId = compileOnce<[string, string], ConversationRow>((q, arg) =>
  q.selectFrom("conversations").selectAll().where("id", "=", arg(0)).where("account_id", "=", arg(1)),
);

/** The account's conversation with this id. */
export function findAccountConversation(db: Db, accountId: string, id: string): ConversationRow | undefined {
  return db.first(byAccountAndId(id, accountId));
}

const ofNumberInGroup = compileOnce<[string, string], ConversationRow>((q, arg) =>
  q.selectFrom("conversations").selectAll().where("group_id", "=", arg(0)).where("from_handle", "=", arg(1)),
);

/** A member number's conversation in a group, if it has one. */
export function findConversationOfNumber(db: Db, groupId: string, fromHandle: string): ConversationRow | undefined {
  return db.first(ofNumberInGroup(groupId, fromHandle));
}

// A send to a new contact starts a thread: compiled once, like the send's other writes (bench/HISTORY.md).
const CONVERSATION_COLUMNS = allColumns<ConversationsTable>()([
  "id",
  "account_id",
  "from_handle",
  "remote_handle",
  "service",
  "is_group",
  "title",
  "channel",
  "inbound_at",
  "last_message_at",
  "created_at",
  "updated_at",
  "group_id",
  "typing_until",
  "last_read_at",
]);

const insertQuery = compileOnce<unknown[], unknown>((q, arg) =>
  q
    .insertInto("conversations")
    .values(Object.fromEntries(CONVERSATION_COLUMNS.map((column, i) => [column, arg(i)])) as ConversationsTable),
);

const insertParticipant = compileOnce<[string, string, number], unknown>((q, arg) =>
  q.insertInto("conversation_participants").values({ conversation_id: arg(0), handle: arg(1), created_at: arg(2) }),
);

/** Inserts a conversation with its participants. */
export function insertConversation(db: Db, row: ConversationsTable, participants: string[]): void {
  db.run(insertQuery(...CONVERSATION_COLUMNS.map((column) => row[column])));
  for (const handle of participants) db.run(insertParticipant(row.id, handle, row.created_at));
}

const touch = compileOnce<[number, number, string], unknown>((q, arg) =>
  q
    .updateTable("conversations")
    .set({ last_message_at: arg(0), updated_at: arg(1) })
    .where("id", "=", arg(2)),
);

/** Records a new newest message in a thread. */
export function touchConversation(db: Db, id: string, lastMessageAt: number): void {
  db.run(touch(lastMessageAt, lastMessageAt, id));
}

const channelUpdate = compileOnce<[string, string], unknown>((q, arg) =>
  q
    .updateTable("conversations")
    .set({ channel: arg(0) })
    .where("id", "=", arg(1)),
);

/** Records the channel a thread's latest message went over. */
export function setConversationChannel(db: Db, id: string, channel: string): void {
  db.run(channelUpdate(channel, id));
}

/** True when a handle takes part in a conversation. */
export function isParticipant(db: Db, conversationId: string, handle: string): boolean {
  return (
    db.first(
      db.q
        .selectFrom("conversation_participants")
        .select("handle")
        .where("conversation_id", "=", conversationId)
        .where("handle", "=", handle),
    ) !== undefined
  );
}

/** The columns a Chat resource shows (domain/conversations/chats.ts): a page reads no more. */
const CHAT_COLUMNS = [
  "id",
  "from_handle",
  "remote_handle",
  "is_group",
  "title",
  "group_id",
  "last_message_at",
  "created_at",
  "updated_at",
] as const satisfies readonly (keyof ConversationsTable)[];

/** A conversation row with the columns its Chat resource shows. */
export type ChatViewRow = Pick<ConversationRow, (typeof CHAT_COLUMNS)[number]>;

const chatPage = compileOnce<[string, number, number], ChatViewRow>((q, arg) =>
  q
    .selectFrom("conversations")
    .select(CHAT_COLUMNS)
    .where("account_id", "=", arg(0))
    .where("last_message_at", "<", arg(1))
    .orderBy("last_message_at", "desc")
    .limit(arg(2)),
);

/** The account's conversations, newest activity first, before a last_message_at cursor. */
export function listConversationRows(
  db: Db,
  accountId: string,
  options: { before?: number; limit: number },
): ChatViewRow[] {
  // Without a cursor, before everything: one SQL for both.
  return db.all(chatPage(accountId, options.before ?? Number.MAX_SAFE_INTEGER, options.limit));
}

const inboundOnRecord = compileOnce<[string, string, string], { id: string }>((q, arg) =>
  q
    .selectFrom("conversations")
    .select("id")
    .where("account_id", "=", arg(0))
    .where("from_handle", "=", arg(1))
    .where("remote_handle", "=", arg(2))
    .where("inbound_at", "is not", null)
    .limit(sql.lit(1)),
);

/** True when the contact has ever written to this number, on any service (the Android rule). */
export function hasInboundFrom(db: Db, accountId: string, numberHandle: string, remoteHandle: string): boolean {
  return db.first(inboundOnRecord(accountId, numberHandle, remoteHandle)) !== undefined;
}

const inboundMark = compileOnce<[string, number, string], unknown>((q, arg) =>
  q
    .updateTable("conversations")
    .set({ channel: arg(0), inbound_at: (eb) => eb.fn.coalesce("inbound_at", eb.val(arg(1))) })
    .where("id", "=", arg(2)),
);

/** Records an inbound message in its thread: its channel, and the first inbound time. */
export function markInbound(db: Db, id: string, channel: string, at: number): void {
  db.run(inboundMark(channel, at, id));
}
