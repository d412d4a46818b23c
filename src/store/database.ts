import BetterSqlite3 from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, SqliteDialect, type Compilable } from "kysely";
import { Checkpointer, type WorkerSqlite } from "./checkpointer.js";
import { BoundQuery } from "./compiled-query.js";
import { migrateToLatest } from "./migrations/index.js";
import { statementCache } from "./statements.js";
import type { Database } from "./schema.js";

/** The result of a write: how many rows changed, and the last inserted rowid. */
export interface RunResult {
  changes: number;
  lastInsertRowid: number;
}

/**
 * The database as the rest of msgctl sees it. Queries are built with kysely (`db.q`) and
 * executed synchronously through better-sqlite3: a transaction is then one synchronous call,
 * so no other request can interleave with it and every state change commits with its event.
 */
export interface Db {
  /** Query builder; build with it, then execute with all/first/run. */
  readonly q: Kysely<Database>;
  /** Rows of a query. */
  all<R>(query: Compilable<R>): R[];
  /** The first row of a query, or undefined. */
  first<R>(query: Compilable<R>): R | undefined;
  /** Executes a write. */
  run(query: Compilable<unknown>): RunResult;
  /**
   * Runs fn atomically: its writes all land or none do. Transactions share one SQLite
   * transaction (group commit), each in its own savepoint. The batch commits right after the
   * current turn of the event loop when someone waits for it (`committed()`, `afterCommit`),
   * else within LAZY_COMMIT_MS: bookkeeping nobody waits for (the scheduler's claims, webhook
   * attempt records) then shares one commit instead of paying one each.
   */
  transaction<T>(fn: () => T): T;
  /** Resolves when every write made so far is committed (at once when none is pending). */
  committed(): Promise<void>;
  /**
   * Resolves once the writes someone waits for are committed (those with afterCommit callbacks,
   * or a committed() caller): at once when the open batch holds only bookkeeping.
   */
  urgentCommitted(): Promise<void>;
  /**
   * Runs `fn` once the writes made so far are committed (signals to live listeners); commits soon.
   * Dropped when the transaction that registered it throws: no signal for writes undone.
   */
  afterCommit(fn: () => void): void;
  /**
   * While on, afterCommit no longer hurries a commit: its callbacks run after the next commit
   * someone waits for (committed(), urgentCommitted()), or within LAZY_COMMIT_MS. An advance
   * turns it on: every retry it records schedules the next one, whose wake-up hurried a commit
   * per batch of records (389 commits in a `delivery-500` advance, 63 without; bench/README.md).
   */
  deferSignals(on: boolean): void;
  /**
   * Calls `listener` after every commit that wrote something (a batch, or a write outside one),
   * for views that refresh when anything changed (the inspector); returns an unsubscribe function.
   */
  onCommit(listener: () => void): () => void;
  /** Empties every table but the migration bookkeeping and the clock, in one transaction. */
  wipe(): void;
  /** The tables that have a column of this name. */
  tablesWithColumn(column: string): string[];
  /** Deletes the rows of `table` whose `column` equals `value` (tables named by the schema, not by input). */
  deleteWhere(table: string, column: string, value: string | number): number;
  /** True for `:memory:` databases. */
  readonly inMemory: boolean;
  /** Where WAL checkpoints run: inside COMMITs (SQLite's own), in a worker thread, or none (`:memory:`). */
  readonly walCheckpoints: "in-commit" | "worker" | "none";
  /** Checkpoints the WAL and closes the file. */
  close(): void;
}

/** The longest a batch of writes nobody waits for stays uncommitted (real milliseconds). */
export const LAZY_COMMIT_MS = 50;

/**
 * The least time between two commits that someone waits for (real milliseconds): under load,
 * the writes of that time share one commit (each costs a write of every page it touched);
 * a lone request still commits right after its turn.
 */
export const COMMIT_INTERVAL_MS = 2;

/** How to open a database. */
export interface OpenOptions {
  /** The SQLite addon, when better-sqlite3 cannot find its own (the single binary). */
  nativeBinding?: object;
  /** How the checkpoint worker loads better-sqlite3, when it cannot resolve it (the single binary). */
  workerSqlite?: () => WorkerSqlite | undefined;
}

/** Opens (creating when needed) a database file or `:memory:` and applies the migrations. */
export async function openDatabase(path: string, options: OpenOptions = {}): Promise<Db> {
  const inMemory = path === ":memory:";
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  // The typings say string, but better-sqlite3 takes the loaded addon object too (its database.js).
  const raw = new BetterSqlite3(
    path,
    options.nativeBinding ? { nativeBinding: options.nativeBinding as unknown as string } : {},
  );
  if (!inMemory) raw.pragma("journal_mode = WAL");
  raw.pragma("synchronous = NORMAL");
  raw.pragma("foreign_keys = ON");
  raw.pragma("busy_timeout = 5000");
  // Every transaction is a savepoint in a batch: the page images a savepoint may roll back to
  // (its sub-journal) stay in memory instead of going to temporary files, which cost a write
  // per page touched (bench/README.md).
  raw.pragma("temp_store = MEMORY");

  const q = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
  await migrateToLatest(q);
  const checkpointer = inMemory ? undefined : new Checkpointer(raw, path, options.workerSqlite);
  return createDb(raw, q, inMemory, checkpointer);
}

function createDb(
  raw: BetterSqlite3.Database,
  q: Kysely<Database>,
  inMemory: boolean,
  checkpointer: Checkpointer | undefined,
): Db {
  const prepare = statementCache(raw);
  // better-sqlite3 binds no booleans; SQLite stores them as 0/1 anyway.
  const params = (values: readonly unknown[]) => {
    for (const value of values) {
      if (typeof value === "boolean") return values.map((v) => (typeof v === "boolean" ? (v ? 1 : 0) : v));
    }
    return values;
  };

  // --- Group commit ---
  // One commit writes the WAL pages of every request in the batch once: under load most of
  // the cost of a send was the commit of its own small transaction (bench/README.md).
  // A plain BEGIN: the checkpoint worker never takes the write lock (checkpointer.ts), so a batch
  // that began with a read never finds it taken when it comes to write.
  const begin = raw.prepare("BEGIN");
  const commit = raw.prepare("COMMIT");
  // Each transaction is a savepoint inside the open batch. Run here rather than through
  // better-sqlite3's transaction(), which builds four wrapper functions per call: on the hot
  // paths that was a tenth of the scheduler's time (bench/README.md).
  const savepoint = raw.prepare("SAVEPOINT msgctl");
  const release = raw.prepare("RELEASE msgctl");
  const rollbackTo = raw.prepare("ROLLBACK TO msgctl");
  let waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  let after: (() => void)[] = [];
  let batchOpen = false;
  const commitListeners = new Set<() => void>();
  let urgent = false;
  let signalsDeferred = false;
  let lazyTimer: NodeJS.Timeout | undefined;
  let lastCommitAt = Number.NEGATIVE_INFINITY;
  const openBatch = () => {
    begin.run();
    batchOpen = true;
    lazyTimer = setTimeout(commitBatch, LAZY_COMMIT_MS).unref();
  };
  // Someone waits for this batch: commit right after the current turn, or once the interval
  // since the last commit is over.
  const hurry = () => {
    if (urgent) return;
    urgent = true;
    const wait = lastCommitAt + COMMIT_INTERVAL_MS - performance.now();
    if (wait <= 0) setImmediate(commitBatch);
    else setTimeout(commitBatch, wait);
  };
  const committedWrites = () => {
    checkpointer?.committed();
    for (const listener of commitListeners) listener();
  };
  const commitBatch = () => {
    const settle = waiting;
    const callbacks = after;
    const opened = batchOpen;
    waiting = [];
    after = [];
    batchOpen = false;
    urgent = false;
    clearTimeout(lazyTimer);
    try {
      if (raw.open && raw.inTransaction) {
        commit.run();
        lastCommitAt = performance.now();
      }
      // SQLite itself rolled the batch back (a full disk, say): nothing of it may be acknowledged.
      else if (opened) throw new Error("The transaction was rolled back by SQLite before it could commit");
    } catch (error) {
      for (const waiter of settle) waiter.reject(error);
      return;
    }
    for (const waiter of settle) waiter.resolve();
    for (const callback of callbacks) callback();
    if (opened) committedWrites();
  };

  const userTables = () =>
    raw
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'",
      )
      .pluck()
      .all() as string[];

  // A query compiled once (compiled-query.ts) carries its SQL: no compile step per call.
  const compiled = (query: Compilable<unknown>): { sql: string; parameters: readonly unknown[] } =>
    query instanceof BoundQuery ? query : query.compile();

  return {
    q,
    inMemory,
    get walCheckpoints() {
      if (!checkpointer) return "none";
      return checkpointer.running ? "worker" : "in-commit";
    },
    all<R>(query: Compilable<R>) {
      const { sql, parameters } = compiled(query);
      const { statement, toRow } = prepare(sql);
      const rows = statement.all(...params(parameters)) as unknown[][];
      return (toRow ? rows.map((values) => toRow(values)) : rows) as R[];
    },
    first<R>(query: Compilable<R>) {
      const { sql, parameters } = compiled(query);
      const { statement, toRow } = prepare(sql);
      const values = statement.get(...params(parameters)) as unknown[] | undefined;
      return (values === undefined || !toRow ? values : toRow(values)) as R | undefined;
    },
    run(query) {
      const { sql, parameters } = compiled(query);
      const result = prepare(sql).statement.run(...params(parameters));
      if (!raw.inTransaction && result.changes > 0) committedWrites();
      return { changes: result.changes, lastInsertRowid: Number(result.lastInsertRowid) };
    },
    transaction<T>(fn: () => T): T {
      if (!raw.inTransaction) openBatch();
      // A savepoint (nested ones stack under the same name): a throw undoes only fn's writes.
      savepoint.run();
      // The signals fn registers belong to its writes: undone with them when it throws.
      const signals = after;
      const signalsBefore = signals.length;
      try {
        const result = fn();
        if (typeof (result as { then?: unknown } | undefined)?.then === "function") {
          throw new TypeError("Transaction function cannot return a promise");
        }
        release.run();
        return result;
      } catch (error) {
        // SQLite may have rolled the whole batch back itself (a full disk): nothing left to undo.
        if (raw.inTransaction) {
          rollbackTo.run();
          release.run();
        }
        signals.length = signalsBefore;
        throw error;
      }
    },
    committed() {
      if (!raw.inTransaction) return Promise.resolve();
      hurry();
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    urgentCommitted() {
      if (!raw.inTransaction || !(urgent || after.length > 0)) return Promise.resolve();
      hurry();
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    afterCommit(fn) {
      if (!raw.inTransaction) return queueMicrotask(fn);
      after.push(fn);
      if (!signalsDeferred) hurry();
    },
    deferSignals(on) {
      signalsDeferred = on;
      if (!on && after.length > 0 && raw.inTransaction) hurry();
    },
    onCommit(listener) {
      commitListeners.add(listener);
      return () => void commitListeners.delete(listener);
    },
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
      if (!raw.inTransaction) committedWrites();
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
    close() {
      if (!raw.open) return;
      commitBatch();
      checkpointer?.close();
      raw.close();
    },
  };
}
