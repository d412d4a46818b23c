import type BetterSqlite3 from "better-sqlite3";
import type { Db } from "./db.js";

/** The longest a batch of writes nobody waits for stays uncommitted (real milliseconds). */
export const LAZY_COMMIT_MS = 50;

/**
 * The least time between two commits that someone waits for (real milliseconds): under load,
 * the writes of that time share one commit (each costs a write of every page it touched);
 * a lone request still commits right after its turn.
 */
export const COMMIT_INTERVAL_MS = 2;

/** The batch: one SQLite transaction that the transactions of a turn write into, and what its commit settles. */
export interface GroupCommit extends Pick<Db, "committed" | "urgentCommitted" | "afterCommit" | "deferSignals"> {
  /** Opens the batch (BEGIN); its commit is due within LAZY_COMMIT_MS. */
  begin(): void;
  /** Commits the open batch, then settles its waiters and runs its signals. */
  commit(): void;
  /** The signals registered in the open batch, in order: a transaction that throws takes its own back. */
  readonly signals: (() => void)[];
}

/**
 * Group commit (the commit rules of `Db`). One commit writes the WAL pages of every request in
 * the batch once: under load most of the cost of a send was the commit of its own small
 * transaction (bench/HISTORY.md). `wrote` is told of every commit that wrote something.
 */
export function groupCommit(raw: BetterSqlite3.Database, wrote: () => void): GroupCommit {
  // A plain BEGIN: the checkpoint worker never takes the write lock (checkpointer.ts), so a batch
  // that began with a read never finds it taken when it comes to write.
  const begin = raw.prepare("BEGIN");
  const commitStatement = raw.prepare("COMMIT");
  let waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  let after: (() => void)[] = [];
  let batchOpen = false;
  let urgent = false;
  let signalsDeferred = false;
  let lazyTimer: NodeJS.Timeout | undefined;
  let lastCommitAt = Number.NEGATIVE_INFINITY;

  const commit = () => {
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
        commitStatement.run();
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
    if (opened) wrote();
  };
  // Someone waits for this batch: commit right after the current turn, or once the interval
  // since the last commit is over.
  const hurry = () => {
    if (urgent) return;
    urgent = true;
    const wait = lastCommitAt + COMMIT_INTERVAL_MS - performance.now();
    if (wait <= 0) setImmediate(commit);
    else setTimeout(commit, wait);
  };

  return {
    begin() {
      begin.run();
      batchOpen = true;
      lazyTimer = setTimeout(commit, LAZY_COMMIT_MS).unref();
    },
    commit,
    get signals() {
      return after;
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
  };
}
