import type { Selectable, Updateable } from "kysely";
import type { Db } from "../engine/db.js";
import type { MessageActionsTable } from "./tables.js";

/** A pending or finished react/edit/unsend as read back. */
export type MessageActionRow = Selectable<MessageActionsTable>;

/** Inserts an action. */
export function insertMessageAction(db: Db, row: MessageActionsTable): void {
  db.run(db.q.insertInto("message_actions").values(row));
}

/** An action by id. */
export function findMessageAction(db: Db, id: string): MessageActionRow | undefined {
  return db.first(db.q.selectFrom("message_actions").selectAll().where("id", "=", id));
}

/** Applies changes to an action. */
export function updateMessageAction(db: Db, id: string, changes: Updateable<MessageActionsTable>): void {
  db.run(db.q.updateTable("message_actions").set(changes).where("id", "=", id));
}

/** A message's actions, oldest first. */
export function listMessageActions(db: Db, messageId: string): MessageActionRow[] {
  return db.all(
    db.q.selectFrom("message_actions").selectAll().where("message_id", "=", messageId).orderBy("created_at"),
  );
}

/** The reactions sent through the API that landed on a thread's messages, oldest first. */
export function listLandedReactions(db: Db, conversationId: string): (MessageActionRow & { number_handle: string })[] {
  return db.all(
    db.q
      .selectFrom("message_actions")
      .innerJoin("messages", "messages.id", "message_actions.message_id")
      .selectAll("message_actions")
      .select("messages.number_handle")
      .where("messages.conversation_id", "=", conversationId)
      .where("message_actions.kind", "=", "react")
      .where("message_actions.status", "=", "done")
      .orderBy("message_actions.updated_at"),
  );
}
