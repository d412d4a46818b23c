import type BetterSqlite3 from "better-sqlite3";

/** The connection's own table of the rows written since the baseline: per table, each rowid. */
const WRITTEN = "temp.msgctl_written";
/** Every trigger of the tracking is named with this prefix and its table's name. */
const TRIGGER = "msgctl_written_";

/**
 * The rows written since the database last equalled a snapshot's content (its baseline: the
 * snapshot just saved or restored), so that restoring that same snapshot again rewrites only
 * those rows instead of every table (a suite restores before each test, and a test writes little).
 *
 * Each tracked table gets TEMP triggers on this connection, after insert, update and delete, that
 * record the rowids they touch (each once). Every write of msgctl goes through this one connection, and the
 * record is part of the writing transaction: a write rolled back leaves no record. With REPLACE,
 * SQLite fires delete triggers only when recursive triggers are on: they are, while tracking.
 * Without a baseline (a fresh start, after a reset) nothing is tracked and writes pay nothing.
 */
export interface WrittenRows {
  /** The content key of the baseline (undefined while a save names it), or null when not tracking. */
  readonly baseline: { key: string | undefined } | null;
  /** Starts (or restarts) tracking from now, the database being the content `key` names. */
  track(key: string | undefined): { key: string | undefined };
  /** Stops tracking: triggers dropped, records forgotten. */
  stop(): void;
  /** Each table with rows written since the baseline, and how many. */
  tables(): Map<string, number>;
  /** The SQL that selects the rowids written in `table` (for `rowid IN (…)`). */
  rowids(table: string): string;
  /** Drops the triggers of `table` (a whole-table copy into it must not fire them); `resume` puts them back. */
  pause(table: string): void;
  resume(table: string): void;
  /** Forgets the records (inside the restore's transaction). */
  clear(): void;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** Tracking of the rows written to `tables` on the connection `raw`. */
export function writtenRows(raw: BetterSqlite3.Database, tables: () => readonly string[]): WrittenRows {
  let baseline: { key: string | undefined } | null = null;
  let armed = new Set<string>();

  const arm = (table: string) => {
    // Not INSERT OR IGNORE: the writing statement's own conflict policy (an upsert's) would override it.
    const record = (row: "NEW" | "OLD") =>
      `INSERT INTO ${WRITTEN} SELECT ${literal(table)}, ${row}.rowid WHERE NOT EXISTS (SELECT 1 FROM ${WRITTEN} WHERE tbl = ${literal(table)} AND rid = ${row}.rowid);`;
    const on = `ON main.${quoted(table)} BEGIN`;
    raw.exec(
      `CREATE TEMP TRIGGER IF NOT EXISTS ${quoted(`${TRIGGER}${table}_i`)} AFTER INSERT ${on} ${record("NEW")} END;` +
        `CREATE TEMP TRIGGER IF NOT EXISTS ${quoted(`${TRIGGER}${table}_u`)} AFTER UPDATE ${on} ${record("OLD")} ${record("NEW")} END;` +
        `CREATE TEMP TRIGGER IF NOT EXISTS ${quoted(`${TRIGGER}${table}_d`)} AFTER DELETE ${on} ${record("OLD")} END;`,
    );
    armed.add(table);
  };
  const disarm = (table: string) => {
    for (const kind of ["i", "u", "d"]) raw.exec(`DROP TRIGGER IF EXISTS temp.${quoted(`${TRIGGER}${table}_${kind}`)}`);
    armed.delete(table);
  };

  return {
    get baseline() {
      return baseline;
    },
    track(key) {
      raw.exec(
        `CREATE TEMP TABLE IF NOT EXISTS msgctl_written (tbl TEXT NOT NULL, rid INTEGER NOT NULL, PRIMARY KEY (tbl, rid)) WITHOUT ROWID`,
      );
      raw.exec(`DELETE FROM ${WRITTEN}`);
      raw.pragma("recursive_triggers = ON");
      for (const table of tables()) if (!armed.has(table)) arm(table);
      baseline = { key };
      return baseline;
    },
    stop() {
      for (const table of [...armed]) disarm(table);
      armed = new Set();
      if (baseline) raw.exec(`DELETE FROM ${WRITTEN}`);
      raw.pragma("recursive_triggers = OFF");
      baseline = null;
    },
    tables() {
      if (!baseline) return new Map();
      const rows = raw.prepare(`SELECT tbl, count(*) FROM ${WRITTEN} GROUP BY tbl`).raw(true).all() as [
        string,
        number,
      ][];
      return new Map(rows);
    },
    rowids: (table) => `SELECT rid FROM ${WRITTEN} WHERE tbl = ${literal(table)}`,
    pause: disarm,
    resume: arm,
    clear() {
      if (baseline) raw.exec(`DELETE FROM ${WRITTEN}`);
    },
  };
}
