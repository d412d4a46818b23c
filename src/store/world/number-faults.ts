import type { Selectable } from "kysely";
import { compileOnce } from "../engine/compiled-query.js";
import type { Db } from "../engine/db.js";
import type { NumberFaultsTable } from "./tables.js";

/** A number's fault row as read back. */
export type NumberFaultsRow = Selectable<NumberFaultsTable>;

const byHandle = compileOnce<[string], NumberFaultsRow>((q, arg) =>
  q.selectFrom("number_faults").selectAll().where("handle", "=", arg(0)),
);

/** The faults switched on for a number; undefined when it never had any. */
export function findNumberFaults(db: Db, handle: string): NumberFaultsRow | undefined {
  return db.first(byHandle(handle));
}

/** Creates or replaces a number's fault row. */
export function saveNumberFaults(db: Db, row: NumberFaultsTable): void {
  const { handle: _handle, ...changes } = row;
  db.run(
    db.q
      .insertInto("number_faults")
      .values(row)
      .onConflict((oc) => oc.column("handle").doUpdateSet(changes)),
  );
}
