// The cases of the stored-message benchmark (bench/stored.mjs): which pages of the generated
// database are read, each beside the reference's query for the same page.
import Database from "better-sqlite3";

/** How many different ids (cursors, threads) each case cycles through. */
export const ROTATE = 100;

const iso = (ms) => new Date(ms).toISOString();

/** The cases: each a list of (msgctl path, reference query) pairs that requests cycle through. */
export function buildCases(path) {
  const db = new Database(path, { readonly: true });
  const account = (name) => db.prepare("SELECT id FROM accounts WHERE name = ?").pluck().get(name);
  const acme = account("Acme");
  const globex = account("Globex");
  const count = db.prepare("SELECT count(*) FROM messages WHERE account_id = ?").pluck().get(acme);
  const createdAtRank = db
    .prepare("SELECT created_at FROM messages WHERE account_id = ? ORDER BY created_at DESC LIMIT 1 OFFSET ?")
    .pluck();
  // Cursors spread over the whole history: the page after the message at each depth.
  const deep = Array.from({ length: ROTATE }, (_, i) =>
    createdAtRank.get(acme, Math.floor(((i + 0.5) / ROTATE) * (count - 100))),
  );
  // Busy threads (a page and more of messages) of both kinds, and cursors in their middle.
  const threads = db
    .prepare(
      "SELECT conversation_id AS id, count(*) AS n FROM messages WHERE account_id = ? GROUP BY conversation_id HAVING n > 100 ORDER BY random() LIMIT ?",
    )
    .all(acme, ROTATE);
  const middle = db
    .prepare("SELECT created_at FROM messages WHERE conversation_id = ? ORDER BY created_at DESC LIMIT 1 OFFSET ?")
    .pluck();
  const chatCount = db.prepare("SELECT count(*) FROM conversations WHERE account_id = ?").pluck().get(acme);
  const chatRank = db
    .prepare(
      "SELECT last_message_at FROM conversations WHERE account_id = ? ORDER BY last_message_at DESC LIMIT 1 OFFSET ?",
    )
    .pluck();
  const laterChats = Array.from({ length: ROTATE }, (_, i) =>
    chatRank.get(acme, 50 + Math.floor((i / ROTATE) * (chatCount - 100))),
  );
  for (const thread of threads) thread.middle = middle.get(thread.id, Math.floor(thread.n / 2));
  db.close();
  return {
    info: { acme_messages: count, acme_chats: chatCount, busy_threads: threads.length },
    cases: {
      "messages, first page": [[`/v1/messages?limit=50`, { account: acme }]],
      "messages, deep pages": deep.map((before) => [
        `/v1/messages?limit=50&before=${iso(before)}`,
        { account: acme, before },
      ]),
      "messages in a conversation, first page": threads.map(({ id }) => [
        `/v1/messages?limit=50&conversation_id=${id}`,
        { conversation: id },
      ]),
      "messages in a conversation, middle pages": threads.map(({ id, middle: before }) => [
        `/v1/messages?limit=50&conversation_id=${id}&before=${iso(before)}`,
        { conversation: id, before },
      ]),
      "chats, first page": [[`/v1/chats?limit=50`, { account: acme }]],
      "chats, later pages": laterChats.map((before) => [
        `/v1/chats?limit=50&before=${iso(before)}`,
        { account: acme, before },
      ]),
      "messages of the second account, first page": [
        [`/v1/messages?limit=50`, { account: globex, key: "sk_test_globex_00000000000000" }],
      ],
    },
  };
}

/** The reference's URL for the page msgctl answers at `msgctlPath`. */
export const referenceUrl = (base, msgctlPath, query) => {
  const params = new URLSearchParams(
    Object.entries(query)
      .filter(([k, v]) => k !== "key" && v !== undefined)
      .map(([k, v]) => [k === "conversation" ? "conversation_id" : k, String(v)]),
  );
  params.set("limit", "50");
  return `${base}/${msgctlPath.startsWith("/v1/chats") ? "chats" : "messages"}?${params}`;
};
