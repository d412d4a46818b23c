import type { Insertable, Selectable } from "kysely";
import { allColumns, compileOnce } from "../engine/compiled-query.js";
import type { Db } from "../engine/db.js";
import type { ChaosLogTable } from "./tables.js";

/** A chaos log entry as read back. */
export type ChaosLogRow = Selectable<ChaosLogTable>;

const LOG_COLUMNS = allColumns<Omit<ChaosLogTable, "id">>()([
  "account_id",
  "at",
  "kind",
  "event_id",
  "event_type",
  "event_number",
  "webhook_id",
  "endpoint_number",
  "delivery_id",
  "message_id",
  "message_number",
  "number_handle",
  "receipt",
  "member",
  "delay_ms",
]);

const insertQuery = compileOnce<unknown[], unknown>((q, arg) =>
  q
    .insertInto("chaos_log")
    .values(Object.fromEntries(LOG_COLUMNS.map((column, i) => [column, arg(i)])) as Insertable<ChaosLogTable>),
);

/** Appends a decision to the log. */
export function insertChaosLog(db: Db, row: Omit<ChaosLogTable, "id">): void {
  db.run(insertQuery(...LOG_COLUMNS.map((column) => row[column])));
}

/** The account's log entries after `afterId`, oldest first, `limit` at most. */
export function listChaosLog(
  db: Db,
  accountId: string,
  afterId: number,
  limit: number,
  newestFirst = false,
): ChaosLogRow[] {
  return db.all(
    db.q
      .selectFrom("chaos_log")
      .selectAll()
      .where("account_id", "=", accountId)
      .where("id", ">", afterId)
      .orderBy("id", newestFirst ? "desc" : "asc")
      .limit(limit),
  );
}
