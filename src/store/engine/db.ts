import type { Compilable, Kysely } from "kysely";
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
 *
 * The commit rules (`group-commit.ts`, `transactions.ts`):
 * - **Savepoints in one transaction.** Every `transaction(fn)` is a savepoint of one open SQLite
 *   transaction, the batch: fn's writes all land or none do, a throw undoes fn's writes only
 *   (nested transactions stack), and fn may not return a promise.
 * - **Group commit.** The batch commits right after the current turn of the event loop when
 *   someone waits for it (`committed()`, `urgentCommitted()`, a signal registered with
 *   `afterCommit`), at most once per COMMIT_INTERVAL_MS under load; and within LAZY_COMMIT_MS
 *   when nobody does: bookkeeping nobody waits for (the scheduler's claims, webhook attempt
 *   records) then shares one commit instead of paying one each. A write outside any transaction
 *   joins the open batch, or commits on its own at once when none is open.
 * - **Signals after commit.** `afterCommit` callbacks (signals to live listeners) run once the
 *   writes made before them are committed, never before; those of a transaction that throws are
 *   dropped with its writes, and a batch SQLite rolled back itself rejects its waiters and runs
 *   none. While signals are deferred (`deferSignals`, an advance), they hurry no commit: they run
 *   after the next commit someone waits for, or within LAZY_COMMIT_MS.
 * - **Commit listeners.** `onCommit` listeners run after every commit that wrote something (a
 *   batch, a write outside one, a wipe).
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
  /** Runs fn atomically, as a savepoint of the open batch (the commit rules above). */
  transaction<T>(fn: () => T): T;
  /** Resolves when every write made so far is committed (at once when none is pending). */
  committed(): Promise<void>;
  /**
   * Resolves once the writes someone waits for are committed (those with afterCommit callbacks,
   * or a committed() caller): at once when the open batch holds only bookkeeping.
   */
  urgentCommitted(): Promise<void>;
  /** Runs `fn` once the writes made so far are committed (a signal to live listeners); commits soon. */
  afterCommit(fn: () => void): void;
  /**
   * While on, afterCommit no longer hurries a commit. An advance turns it on: every retry it
   * records schedules the next one, whose wake-up hurried a commit per batch of records (389
   * commits in a `delivery-500` advance, 63 without; bench/HISTORY.md).
   */
  deferSignals(on: boolean): void;
  /**
   * Calls `listener` after every commit that wrote something, for views that refresh when
   * anything changed (the inspector); returns an unsubscribe function.
   */
  onCommit(listener: () => void): () => void;
  /** Empties every table but the migration bookkeeping and the clock, in one transaction. */
  wipe(): void;
  /**
   * Writes a consistent copy of the whole database to a new file at `path` (a snapshot's save),
   * after committing the open batch. Returns a function that names the copy's content once it is
   * kept (its content key): a `replaceFrom` of that content then rewrites only what was written since.
   */
  copyTo(path: string): (key: string) => void;
  /**
   * Replaces every table but the migration bookkeeping and the clock with those of the database
   * file at `path` (a snapshot's restore), in one transaction, after committing the open batch.
   * Its schema must be this one's. Prepared statements stay valid. `key` names the file's content
   * (a snapshot store's content key): when the database was that content (saved or restored last)
   * only the rows written since are rewritten.
   */
  replaceFrom(path: string, key?: string): void;
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
