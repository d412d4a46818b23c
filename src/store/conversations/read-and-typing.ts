import type { Db } from "../engine/db.js";

/** Shows the account's typing bubble until `until`, or hides it (null). */
export function setTypingUntil(db: Db, conversationId: string, until: number | null): void {
  db.run(db.q.updateTable("conversations").set({ typing_until: until }).where("id", "=", conversationId));
}

/**
 * Marks a thread read at `at`: the conversation's read mark, and every inbound message of it not
 * read yet becomes `read`. Returns how many messages were marked.
 */
export function markThreadRead(db: Db, conversationId: string, at: number): number {
  db.run(db.q.updateTable("conversations").set({ last_read_at: at }).where("id", "=", conversationId));
  return db.run(
    db.q
      .updateTable("messages")
      .set({ status: "read", read_at: at, updated_at: at })
      .where("conversation_id", "=", conversationId)
      .where("direction", "=", "inbound")
      .where("status", "=", "delivered"),
  ).changes;
}
