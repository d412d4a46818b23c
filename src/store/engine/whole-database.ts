import type BetterSqlite3 from "better-sqlite3";
import type { Db } from "./db.js";
import type { GroupCommit } from "./group-commit.js";

/** The schema name a snapshot is attached under while it is copied in. */
const ATTACHED = "msgctl_restore";

/**
 * The table a restore leaves as it is besides the migration bookkeeping (the live schema is this
 * msgctl's): the clock, whose time a restore decides (docs/snapshots.md).
 */
const KEPT = new Set(["clock_state"]);

/** How far SQLite may map an attached snapshot into memory: reads without a system call per page. */
const SNAPSHOT_MMAP_BYTES = 1 << 30;

/** The user tables of a schema (no SQLite or kysely bookkeeping). */
function tablesOf(raw: BetterSqlite3.Database, schema: string): Map<string, string> {
  const rows = raw
    .prepare(
      `SELECT name, sql FROM "${schema}".sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'`,
    )
    .raw(true)
    .all() as [string, string][];
  return new Map(rows);
}

/**
 * `Db.copyTo` and `Db.replaceFrom`: the whole database at once, on the connection directly (a
 * snapshot's save and restore). Both commit the open batch first: neither may run inside a
 * transaction, and what was acknowledged before belongs to the state they copy or replace.
 */
export function wholeDatabase(
  raw: BetterSqlite3.Database,
  batch: GroupCommit,
  wrote: () => void,
): Pick<Db, "copyTo" | "replaceFrom"> {
  const commitOpenBatch = () => {
    batch.commit();
    if (raw.inTransaction) throw new Error("The open batch could not be committed");
  };
  return {
    copyTo(path) {
      commitOpenBatch();
      // One statement: a consistent copy, compacted, written while nothing else runs.
      raw.prepare("VACUUM INTO ?").run(path);
    },
    replaceFrom(path) {
      commitOpenBatch();
      const live = tablesOf(raw, "main");
      // SQLite copies a table's records and index entries as they are ("transfer optimization")
      // only into an empty table with the same schema, without triggers, and with foreign keys
      // off: a third of the time of inserting row by row. Foreign keys can only be switched
      // outside a transaction; the snapshot is consistent in itself.
      raw.pragma("foreign_keys = OFF");
      try {
        raw.prepare(`ATTACH ? AS ${ATTACHED}`).run(path);
        try {
          raw.pragma(`${ATTACHED}.mmap_size = ${SNAPSHOT_MMAP_BYTES}`);
          const saved = tablesOf(raw, ATTACHED);
          for (const [table, sql] of live) {
            if (saved.get(table) !== sql) throw new Error(`The snapshot's table ${table} differs from this database's`);
          }
          raw.prepare("BEGIN").run();
          try {
            for (const table of live.keys()) {
              if (KEPT.has(table)) continue;
              raw.prepare(`DELETE FROM main."${table}"`).run();
              raw.prepare(`INSERT INTO main."${table}" SELECT * FROM ${ATTACHED}."${table}"`).run();
            }
            // AUTOINCREMENT counters: ids go on from the snapshot's, as they would have.
            raw.prepare("DELETE FROM main.sqlite_sequence").run();
            raw.prepare(`INSERT INTO main.sqlite_sequence SELECT * FROM ${ATTACHED}.sqlite_sequence`).run();
            raw.prepare("COMMIT").run();
          } catch (error) {
            if (raw.inTransaction) raw.prepare("ROLLBACK").run();
            throw error;
          }
        } finally {
          raw.prepare(`DETACH ${ATTACHED}`).run();
        }
      } finally {
        raw.pragma("foreign_keys = ON");
      }
      wrote();
    },
  };
}
