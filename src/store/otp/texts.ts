import type { Selectable } from "kysely";
import type { Db } from "../engine/db.js";
import type { OtpTextsTable } from "./tables.js";

/** A text row as read back. */
export type OtpTextRow = Selectable<OtpTextsTable>;

/** Inserts a text of an OTP thread. */
export function insertOtpText(db: Db, row: OtpTextsTable): void {
  db.run(db.q.insertInto("otp_texts").values(row));
}

/**
 * Texts of the phones the account has created challenges for, newest first, optionally one
 * phone's and before a created_at.
 */
export function listOtpTextRows(
  db: Db,
  accountId: string,
  options: { phone?: string; before?: number; limit: number },
): OtpTextRow[] {
  let query = db.q
    .selectFrom("otp_texts")
    .selectAll()
    .where("phone", "in", db.q.selectFrom("otp_challenges").select("phone").where("account_id", "=", accountId));
  if (options.phone !== undefined) query = query.where("phone", "=", options.phone);
  if (options.before !== undefined) query = query.where("created_at", "<", options.before);
  return db.all(query.orderBy("created_at", "desc").limit(options.limit));
}
