import type BetterSqlite3 from "better-sqlite3";
import type { Db } from "./db.js";

/**
 * `Db.wipe`, `tablesWithColumn` and `deleteWhere`: whole-table work named by the schema (a reset,
 * an account's removal), on the connection directly. `wrote` is told of a wipe that committed.
 */
export function maintenance(
  raw: BetterSqlite3.Database,
  wrote: () => void,
): Pick<Db, "wipe" | "tablesWithColumn" | "deleteWhere"> {
  const userTables = () =>
    raw
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'",
      )
      .pluck()
      .all() as string[];

  return {
    wipe() {
      // The clock is not the accounts' state: a reset keeps its row, so a manual clock's time
      // is still saved afterwards and a restart on the same file resumes it.
      const tables = userTables().filter((table) => table !== "clock_state");
      raw.transaction(() => {
        // Foreign keys are checked at commit, when every table is empty.
        raw.pragma("defer_foreign_keys = ON");
        for (const table of tables) raw.prepare(`DELETE FROM "${table}"`).run();
        raw.prepare("DELETE FROM sqlite_sequence").run();
      })();
      if (!raw.inTransaction) wrote();
    },
    tablesWithColumn(column) {
      return userTables().filter((table) =>
        (raw.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).some((c) => c.name === column),
      );
    },
    deleteWhere(table, column, value) {
      return raw.prepare(`DELETE FROM "${table.replace(/"/g, "")}" WHERE "${column.replace(/"/g, "")}" = ?`).run(value)
        .changes;
    },
  };
}
