import type { Selectable } from "kysely";
import { compileOnce } from "../engine/compiled-query.js";
import type { Db } from "../engine/db.js";
import type { GroupMessagesTable, GroupReceiptsTable } from "./tables.js";

/** A group message's link row as read back. */
export type GroupMessageRow = Selectable<GroupMessagesTable>;

/** A member's receipt as read back. */
export type GroupReceiptRow = Selectable<GroupReceiptsTable>;

/** Marks a message as a copy of a group message. */
export function insertGroupMessage(db: Db, row: GroupMessagesTable): void {
  db.run(db.q.insertInto("group_messages").values(row));
}

const byMessage = compileOnce<[string], GroupMessageRow>((q, arg) =>
  q.selectFrom("group_messages").selectAll().where("message_id", "=", arg(0)),
);

/** The group link of a message; undefined for one-to-one messages (the lifecycle asks on every step). */
export function findGroupMessage(db: Db, messageId: string): GroupMessageRow | undefined {
  return db.first(byMessage(messageId));
}

/** The ids of every copy of a group message (the original included), oldest first. */
export function listCopyIds(db: Db, originId: string): string[] {
  return db
    .all(
      db.q
        .selectFrom("group_messages")
        .select("message_id")
        .where("origin_id", "=", originId)
        .orderBy("created_at")
        .orderBy("message_id"),
    )
    .map((row) => row.message_id);
}

/** Opens a receipt, not yet delivered, for each member a group message is sent to (replacing those of an earlier send). */
export function insertReceipts(db: Db, messageId: string, handles: readonly string[]): void {
  db.run(db.q.deleteFrom("group_receipts").where("message_id", "=", messageId));
  handles.forEach((handle, i) => {
    db.run(
      db.q
        .insertInto("group_receipts")
        .values({ message_id: messageId, handle, position: i + 1, delivered_at: null, read_at: null }),
    );
  });
}

const receipts = compileOnce<[string], GroupReceiptRow>((q, arg) =>
  q.selectFrom("group_receipts").selectAll().where("message_id", "=", arg(0)).orderBy("position"),
);

/** A group message's receipts, in the members' joining order. */
export function listReceipts(db: Db, messageId: string): GroupReceiptRow[] {
  return db.all(receipts(messageId));
}

const receipt = compileOnce<[string, string], GroupReceiptRow>((q, arg) =>
  q.selectFrom("group_receipts").selectAll().where("message_id", "=", arg(0)).where("handle", "=", arg(1)),
);

/** One member's receipt. */
export function findReceipt(db: Db, messageId: string, handle: string): GroupReceiptRow | undefined {
  return db.first(receipt(messageId, handle));
}

/** Records a member's receipt changes. */
export function updateReceipt(
  db: Db,
  messageId: string,
  handle: string,
  changes: Partial<Pick<GroupReceiptsTable, "delivered_at" | "read_at">>,
): void {
  db.run(
    db.q.updateTable("group_receipts").set(changes).where("message_id", "=", messageId).where("handle", "=", handle),
  );
}
