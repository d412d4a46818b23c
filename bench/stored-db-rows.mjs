// The raw rows of the stored-message benchmark's database (bench/stored-db.mjs): deterministic
// values, time-ordered ids, and one insert per table with the columns the generator writes.
import { randomBytes } from "node:crypto";

// --- A deterministic generator (mulberry32), so two runs build the same database ---
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The words of the generated texts. */
export const WORDS =
  "ok thanks see you tomorrow order shipped when can we meet running late the package arrived great news call me back please confirm your appointment at 3pm is the store open today love it sounds good".split(
    " ",
  );

/** Ids in the layout of lib/time-ordered-id.ts: 48 bits of milliseconds, version 7, random bits. */
export function idSource() {
  let pool = Buffer.alloc(0);
  let at = 0;
  return (ms) => {
    if (at + 9 > pool.length) {
      pool = randomBytes(9 << 16);
      at = 0;
    }
    const r = pool.toString("hex", at, at + 9);
    const variant = (8 + (pool[at] & 3)).toString(16);
    at += 9;
    const time = Math.floor(ms).toString(16).padStart(12, "0");
    return `${time.slice(0, 8)}-${time.slice(8)}-7${r.slice(0, 3)}-${variant}${r.slice(3, 6)}-${r.slice(6, 18)}`;
  };
}

/** An insert of `row`'s columns into `table`, with every other column left to its default. */
function inserter(raw, table, columns) {
  const known = new Set(raw.pragma(`table_info(${table})`).map((c) => c.name));
  for (const column of columns)
    if (!known.has(column)) throw new Error(`${table}.${column}: not in the migrated schema`);
  const statement = raw.prepare(
    `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  return (...values) => statement.run(...values);
}

/** The inserts of every table the generator writes, each checked against the migrated schema. */
export function rowWriters(raw) {
  const MESSAGE_COLUMNS = [
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
  ];
  return {
    insertConversation: inserter(raw, "conversations", [
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
    ]),
    insertParticipant: inserter(raw, "conversation_participants", ["conversation_id", "handle", "created_at"]),
    insertGroup: inserter(raw, "chat_groups", ["id", "account_id", "kind", "title", "created_at", "updated_at"]),
    insertMember: inserter(raw, "chat_group_members", ["group_id", "handle", "position", "created_at"]),
    insertMessage: inserter(raw, "messages", MESSAGE_COLUMNS),
    insertGroupMessage: inserter(raw, "group_messages", ["message_id", "group_id", "origin_id", "created_at"]),
    insertReceipt: inserter(raw, "group_receipts", ["message_id", "handle", "position", "delivered_at", "read_at"]),
    insertAttachment: inserter(raw, "attachments", [
      "id",
      "account_id",
      "message_id",
      "position",
      "status",
      "filename",
      "mime_type",
      "size_bytes",
      "blob",
      "is_voice_memo",
      "created_at",
      "updated_at",
    ]),
  };
}
