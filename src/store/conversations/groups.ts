import { sql, type Selectable } from "kysely";
import { compileOnce } from "../engine/compiled-query.js";
import type { Db } from "../engine/db.js";
import type { ConversationRow } from "./conversations.js";
import type { ChatGroupsTable } from "./tables.js";

/** A group row as read back. */
export type GroupRow = Selectable<ChatGroupsTable>;

/** Inserts a group with its members, in joining order. */
export function insertGroup(db: Db, row: ChatGroupsTable, members: readonly string[]): void {
  db.run(db.q.insertInto("chat_groups").values(row));
  members.forEach((handle, i) => {
    db.run(
      db.q
        .insertInto("chat_group_members")
        .values({ group_id: row.id, handle, position: i + 1, created_at: row.created_at }),
    );
  });
}

const byId = compileOnce<[string], GroupRow>((q, arg) =>
  q.selectFrom("chat_groups").selectAll().where("id", "=", arg(0)),
);

/** A group by id. */
export function findGroup(db: Db, id: string): GroupRow | undefined {
  return db.first(byId(id));
}

/** Sets a group's title. */
export function setGroupTitle(db: Db, id: string, title: string | null): void {
  db.run(db.q.updateTable("chat_groups").set({ title }).where("id", "=", id));
}

/**
 * Records a change of the group (title, members) on it and on every conversation of it. The time
 * never moves back: a thread's created_at and updated_at are list times, which can run a
 * millisecond or more ahead of the clock.
 */
export function touchGroup(db: Db, id: string, at: number): void {
  db.run(
    db.q
      .updateTable("chat_groups")
      .set({ updated_at: sql<number>`max(updated_at, ${at})` })
      .where("id", "=", id),
  );
  db.run(
    db.q
      .updateTable("conversations")
      .set({ updated_at: sql<number>`max(updated_at, ${at})` })
      .where("group_id", "=", id),
  );
}

const members = compileOnce<[string], { handle: string }>((q, arg) =>
  q.selectFrom("chat_group_members").select("handle").where("group_id", "=", arg(0)).orderBy("position"),
);

/** Every member's handle, in joining order. */
export function listGroupMembers(db: Db, groupId: string): string[] {
  return db.all(members(groupId)).map((row) => row.handle);
}

/** Adds a member at the end of the joining order. */
export function insertGroupMember(db: Db, groupId: string, handle: string, at: number): void {
  const last = db.first(
    db.q
      .selectFrom("chat_group_members")
      .select((eb) => eb.fn.max("position").as("last"))
      .where("group_id", "=", groupId),
  );
  db.run(
    db.q
      .insertInto("chat_group_members")
      .values({ group_id: groupId, handle, position: (last?.last ?? 0) + 1, created_at: at }),
  );
}

/** Removes a member. */
export function deleteGroupMember(db: Db, groupId: string, handle: string): void {
  db.run(db.q.deleteFrom("chat_group_members").where("group_id", "=", groupId).where("handle", "=", handle));
}

/** The conversations of a group: one per member number of the account that ever belonged. */
export function listGroupConversations(db: Db, groupId: string): ConversationRow[] {
  return db.all(db.q.selectFrom("conversations").selectAll().where("group_id", "=", groupId).orderBy("created_at"));
}
