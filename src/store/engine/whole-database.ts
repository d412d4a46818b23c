import type BetterSqlite3 from "better-sqlite3";
import type { Db } from "./db.js";
import type { GroupCommit } from "./group-commit.js";
import { writtenRows, type WrittenRows } from "./written-rows.js";

/** The schema name a snapshot is attached under while it is copied in. */
const ATTACHED = "msgctl_restore";

/**
 * The table a restore leaves as it is besides the migration bookkeeping (the live schema is this
 * msgctl's): the clock, whose time a restore decides (docs/snapshots.md).
 */
const KEPT = new Set(["clock_state"]);

/** How far SQLite may map an attached snapshot into memory: reads without a system call per page. */
const SNAPSHOT_MMAP_BYTES = 1 << 30;

/**
 * Up to this many rows written in a table since the baseline are put back one by one; past it, and
 * past half the table, the whole table is copied (SQLite's transfer of pages is then quicker).
 */
const ROWS_PUT_BACK_ONE_BY_ONE = 1_000;

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

/** The columns an INSERT names to put a row back with its rowid (none extra when a column is the rowid). */
function columnsWithRowid(raw: BetterSqlite3.Database, table: string): string {
  const columns = raw.prepare(`PRAGMA main.table_info("${table}")`).all() as {
    name: string;
    type: string;
    pk: number;
  }[];
  const keys = columns.filter((c) => c.pk > 0);
  const rowidColumn = keys.length === 1 && keys[0]?.type.toUpperCase() === "INTEGER";
  const names = columns.map((c) => `"${c.name}"`);
  return (rowidColumn ? names : ["rowid", ...names]).join(", ");
}

/**
 * `Db.copyTo` and `Db.replaceFrom`: the whole database at once, on the connection directly (a
 * snapshot's save and restore), and `stopTracking` for a wipe. Both commit the open batch first:
 * neither may run inside a transaction, and what was acknowledged before belongs to the state they
 * copy or replace.
 *
 * After either, the rows written are tracked (`written-rows.ts`), so that restoring the same
 * content again (the same content key) rewrites only those rows: the restore before each test of a
 * suite costs what the test wrote, not what the snapshot holds.
 */
export function wholeDatabase(
  raw: BetterSqlite3.Database,
  batch: GroupCommit,
  wrote: () => void,
): Pick<Db, "copyTo" | "replaceFrom"> & { stopTracking(): void } {
  let live: Map<string, string> | undefined;
  const liveTables = () => {
    live ??= tablesOf(raw, "main");
    return live;
  };
  const columns = new Map<string, string>();
  const columnsOf = (table: string) => {
    let list = columns.get(table);
    if (list === undefined) columns.set(table, (list = columnsWithRowid(raw, table)));
    return list;
  };
  const written: WrittenRows = writtenRows(raw, () => [...liveTables().keys()].filter((t) => !KEPT.has(t)));
  const commitOpenBatch = () => {
    batch.commit();
    if (raw.inTransaction) throw new Error("The open batch could not be committed");
  };

  /** The whole table from the snapshot: SQLite copies records and index entries as they are. */
  const copyTable = (table: string) => {
    raw.prepare(`DELETE FROM main."${table}"`).run();
    raw.prepare(`INSERT INTO main."${table}" SELECT * FROM ${ATTACHED}."${table}"`).run();
  };
  /** The rows written since the baseline, put back as the snapshot has them (or removed). */
  const putBackRows = (table: string) => {
    const rowids = written.rowids(table);
    raw.prepare(`DELETE FROM main."${table}" WHERE rowid IN (${rowids})`).run();
    const list = columnsOf(table);
    raw
      .prepare(
        `INSERT INTO main."${table}" (${list}) SELECT ${list} FROM ${ATTACHED}."${table}" WHERE rowid IN (${rowids})`,
      )
      .run();
  };
  /** Whether a table with `count` rows written is better copied whole. */
  const copyWhole = (table: string, count: number) => {
    if (count <= ROWS_PUT_BACK_ONE_BY_ONE) return false;
    const last = raw.prepare(`SELECT max(rowid) FROM ${ATTACHED}."${table}"`).pluck().get() as number | null;
    return count * 2 > (last ?? 0);
  };

  /** Copies in the snapshot attached: every table, or (`since` the same content) the rows written. */
  const copyIn = (incremental: boolean) => {
    const tables = incremental ? written.tables() : undefined;
    const whole = tables ? [...tables].filter(([t, n]) => copyWhole(t, n)).map(([t]) => t) : [];
    // A whole-table copy into a table with triggers would go row by row, and record every row.
    for (const table of whole) written.pause(table);
    try {
      raw.prepare("BEGIN").run();
      try {
        if (tables) {
          for (const table of tables.keys()) {
            if (KEPT.has(table)) continue;
            if (whole.includes(table)) copyTable(table);
            else putBackRows(table);
          }
          written.clear();
        } else {
          for (const table of liveTables().keys()) if (!KEPT.has(table)) copyTable(table);
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
      for (const table of whole) written.resume(table);
    }
  };

  return {
    copyTo(path) {
      commitOpenBatch();
      // One statement: a consistent copy, compacted, written while nothing else runs.
      raw.prepare("VACUUM INTO ?").run(path);
      // From here on the database is that copy's content but for what is written next.
      const baseline = written.track(undefined);
      return (key: string) => {
        if (written.baseline === baseline) baseline.key = key;
      };
    },
    replaceFrom(path, key) {
      commitOpenBatch();
      const tables = liveTables();
      const incremental = key !== undefined && written.baseline?.key === key;
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
          for (const [table, sql] of tables) {
            if (saved.get(table) !== sql) throw new Error(`The snapshot's table ${table} differs from this database's`);
          }
          if (!incremental) written.stop();
          copyIn(incremental);
        } finally {
          raw.prepare(`DETACH ${ATTACHED}`).run();
        }
      } finally {
        raw.pragma("foreign_keys = ON");
      }
      if (key === undefined) written.stop();
      else if (!incremental) written.track(key);
      wrote();
    },
    stopTracking: () => written.stop(),
  };
}
