import type { Db } from "../engine/db.js";
import type { NumbersTable } from "./tables.js";

/** Inserts a number row. */
export function insertNumber(db: Db, row: NumbersTable): void {
  db.run(db.q.insertInto("numbers").values(row));
}

/** The account's numbers, in fixture order. */
export function listNumbers(db: Db, accountId: string): NumbersTable[] {
  return db.all(db.q.selectFrom("numbers").selectAll().where("account_id", "=", accountId).orderBy("position"));
}

/** A number by handle, whichever account owns it. */
export function findNumber(db: Db, handle: string): NumbersTable | undefined {
  return db.first(db.q.selectFrom("numbers").selectAll().where("handle", "=", handle));
}
