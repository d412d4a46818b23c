// The reference for the stored-message benchmark: the same pages read with raw better-sqlite3
// from the same file, with only what the response needs (the columns a message or chat shows,
// and per row the lookups msgctl's views make: a group message's receipts, a message's
// attachments, a group chat's title and members), serialised with JSON.stringify. Used in-process (raw query time) and behind a
// bare node:http server (`node bench/stored-reference.mjs FILE`: prints its URL, serves until killed).
import { createServer } from "node:http";
import Database from "better-sqlite3";

/** The page queries and their per-row lookups, prepared once on `path`. */
export function openReference(path) {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const prepare = (sql) => db.prepare(sql);
  // The columns of a Message resource (spec 4.3); a careful hand-written server reads no more.
  const shown =
    "id, conversation_id, direction, status, channel, text, effect, reply_to, error, metadata, has_attachments, sent_at, delivered_at, read_at, edited_at, created_at";
  const byAccount = prepare(
    `SELECT ${shown} FROM messages WHERE account_id = ? AND created_at < ? ORDER BY created_at DESC LIMIT ?`,
  );
  const byConversation = prepare(
    `SELECT ${shown} FROM messages WHERE conversation_id = ? AND created_at < ? ORDER BY created_at DESC LIMIT ?`,
  );
  const groupMessage = prepare("SELECT 1 FROM group_messages WHERE message_id = ?").pluck();
  const receipts = prepare(
    "SELECT handle, delivered_at, read_at FROM group_receipts WHERE message_id = ? ORDER BY position",
  );
  const attachments = prepare("SELECT * FROM attachments WHERE message_id = ? ORDER BY position");
  const chats = prepare(
    "SELECT id, from_handle, remote_handle, is_group, title, group_id, last_message_at, created_at, updated_at FROM conversations WHERE account_id = ? AND last_message_at < ? ORDER BY last_message_at DESC LIMIT ?",
  );
  const members = prepare("SELECT handle FROM chat_group_members WHERE group_id = ? ORDER BY position").pluck();
  const groupTitle = prepare("SELECT title FROM chat_groups WHERE id = ?").pluck();
  const page = (rows, limit) => ({ data: rows.slice(0, limit), has_more: rows.length > limit });
  return {
    db,
    /** A page of messages, newest first: `{ account, conversation?, before?, limit }`. */
    messages({ account, conversation, before = Number.MAX_SAFE_INTEGER, limit = 50 }) {
      const rows = conversation
        ? byConversation.all(conversation, before, limit + 1)
        : byAccount.all(account, before, limit + 1);
      for (const row of rows) {
        if (row.has_attachments) row.attachments = attachments.all(row.id);
        if (row.direction === "outbound" && groupMessage.get(row.id)) row.recipients = receipts.all(row.id);
      }
      return JSON.stringify(page(rows, limit));
    },
    /** A page of chats, newest activity first. */
    chats({ account, before = Number.MAX_SAFE_INTEGER, limit = 50 }) {
      const rows = chats.all(account, before, limit + 1);
      for (const row of rows) {
        if (row.group_id) {
          row.title = groupTitle.get(row.group_id);
          row.participants = members.all(row.group_id);
        }
      }
      return JSON.stringify(page(rows, limit));
    },
  };
}

/** The query of a URL as the reference reads it: ms timestamps, ids as they are. */
export function referenceQuery(url) {
  const params = new URL(url, "http://x").searchParams;
  const number = (name) => (params.has(name) ? Number(params.get(name)) : undefined);
  return {
    account: params.get("account"),
    conversation: params.get("conversation_id") ?? undefined,
    before: number("before"),
    limit: number("limit") ?? 50,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const reference = openReference(process.argv[2]);
  const server = createServer((req, res) => {
    const query = referenceQuery(req.url);
    const body = req.url.startsWith("/chats") ? reference.chats(query) : reference.messages(query);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
}
