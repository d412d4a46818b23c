import type { Db } from "../engine/db.js";

/** Shows the account's typing bubble until `until`, or hides it (null). */
export function setTypingUntil(db: Db, conversationId: string, until: number | null): void {
  db.run(db.q.updateTable("conversations").set({ typing_until: until }).where("id", "=", conversationId));
}

/** The account read the thread at `at`: its read mark (its messages move with `moveConversationMessages`). */
export function setLastReadAt(db: Db, conversationId: string, at: number): void {
  db.run(db.q.updateTable("conversations").set({ last_read_at: at }).where("id", "=", conversationId));
}
