import type { Selectable, Updateable } from "kysely";
import type { Db } from "../engine/db.js";
import type { AttachmentsTable } from "./tables.js";

/** An attachment row as read back. */
export type AttachmentRow = Selectable<AttachmentsTable>;

/** Changes to an attachment row. */
export type AttachmentChanges = Updateable<AttachmentsTable>;

/** Inserts attachments. */
export function insertAttachments(db: Db, rows: AttachmentsTable[]): void {
  if (rows.length > 0) db.run(db.q.insertInto("attachments").values(rows));
}

/** The account's attachment with this id. */
export function findAccountAttachment(db: Db, accountId: string, id: string): AttachmentRow | undefined {
  return db.first(db.q.selectFrom("attachments").selectAll().where("id", "=", id).where("account_id", "=", accountId));
}

/** An attachment by id, whichever account owns it (signed URLs carry no key). */
export function findAttachmentById(db: Db, id: string): AttachmentRow | undefined {
  return db.first(db.q.selectFrom("attachments").selectAll().where("id", "=", id));
}

/** The account's attachments with these ids (any order). */
export function findAccountAttachments(db: Db, accountId: string, ids: string[]): AttachmentRow[] {
  if (ids.length === 0) return [];
  return db.all(db.q.selectFrom("attachments").selectAll().where("account_id", "=", accountId).where("id", "in", ids));
}

/** A message's attachments, in their order. */
export function listAttachmentsOfMessage(db: Db, messageId: string): AttachmentRow[] {
  return db.all(db.q.selectFrom("attachments").selectAll().where("message_id", "=", messageId).orderBy("position"));
}

/**
 * Claims an uploaded, unclaimed attachment for a message: one conditional UPDATE, so of two sends
 * of one attachment exactly one changes the row. Answers whether this call claimed it.
 */
export function claimAttachment(
  db: Db,
  accountId: string,
  id: string,
  claim: {
    message_id: string;
    position: number;
    is_voice_memo: number;
    duration_seconds: number | null;
    updated_at: number;
  },
): boolean {
  const result = db.run(
    db.q
      .updateTable("attachments")
      .set(claim)
      .where("id", "=", id)
      .where("account_id", "=", accountId)
      .where("message_id", "is", null)
      .where("status", "=", "uploaded"),
  );
  return result.changes === 1;
}

/** Applies changes to an attachment. */
export function updateAttachment(db: Db, id: string, changes: AttachmentChanges): void {
  db.run(db.q.updateTable("attachments").set(changes).where("id", "=", id));
}

/**
 * Lands a presigned upload: only while it is still pending, so a second PUT to the same URL
 * changes nothing. Answers whether this call landed it.
 */
export function completeUpload(db: Db, id: string, changes: AttachmentChanges): boolean {
  return (
    db.run(db.q.updateTable("attachments").set(changes).where("id", "=", id).where("status", "=", "pending_upload"))
      .changes === 1
  );
}

/** The hashes of every blob an attachment row names (its upload, its delivered copy): the bytes a snapshot keeps. */
export function listBlobHashes(db: Db): string[] {
  const rows = db.all(
    db.q
      .selectFrom("attachments")
      .select("blob as hash")
      .where("blob", "is not", null)
      .union(db.q.selectFrom("attachments").select("delivered_blob as hash").where("delivered_blob", "is not", null)),
  );
  return rows.map((row) => row.hash as string);
}
