import type BetterSqlite3 from "better-sqlite3";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * How a worker thread loads better-sqlite3: by the path of its module (a checkout, npm), or, in
 * the single binary, from the source of its bundled module and the path of its addon.
 */
export type WorkerSqlite = { require: string } | { source: string; nativeBinding: string };

/** Commits before the worker starts: a sandbox that writes little never pays for a thread. */
const START_AFTER_COMMITS = 64;
/** The least time between two checkpoints (real milliseconds): each one syncs the WAL and the file. */
const INTERVAL_MS = 200;
/** WAL frames (pages, 4 KiB each) past which the connection starts the WAL over. */
const RESTART_FRAMES = 8_192;
/** The longest a close waits for the worker's checkpoint to end (real milliseconds). */
const CLOSE_WAIT_MS = 5_000;
/** SQLite's own automatic checkpoint, in pages: in force while no worker does it. */
const SQLITE_AUTOCHECKPOINT = 1_000;

// Slots of the memory the connection and the worker share.
const COMMITS = 0;
const STOP = 1;

/** What the worker is given (workerData). */
interface CheckpointerData {
  path: string;
  sqlite: WorkerSqlite;
  state: SharedArrayBuffer;
  intervalMs: number;
  restartFrames: number;
}

/**
 * The worker's code. It runs from its own source text in a thread of its own, so it uses only
 * what it is given: `load` (that thread's require) and workerData. It waits for commits, then
 * checkpoints the WAL (PASSIVE: it never waits for the writer), at most once per interval. Past
 * `restartFrames` it asks the writer to start the WAL over (see Checkpointer).
 */
function checkpointLoop(load: NodeJS.Require): void {
  const { workerData, parentPort } = load("node:worker_threads") as typeof import("node:worker_threads");
  const { path, sqlite, state: shared, intervalMs, restartFrames } = workerData as CheckpointerData;
  let Database: typeof import("better-sqlite3");
  let nativeBinding: string | undefined;
  if ("require" in sqlite) Database = load(sqlite.require);
  else {
    const module = { exports: {} as typeof Database };
    const wrapped = (load("node:module") as { wrap(source: string): string }).wrap(sqlite.source);
    (load("node:vm") as typeof import("node:vm")).runInThisContext(wrapped)(
      module.exports,
      load,
      module,
      "better-sqlite3.cjs",
      ".",
    );
    Database = module.exports;
    nativeBinding = sqlite.nativeBinding;
  }
  // Whatever this connection meets busy waits as long as the main connection would (database.ts).
  const db = new Database(path, { fileMustExist: true, nativeBinding, timeout: 5_000 });
  db.pragma("synchronous = NORMAL");
  db.pragma("wal_autocheckpoint = 0");
  // Slot 0 counts commits, slot 1 says stop (COMMITS and STOP: this code cannot see them).
  const state = new Int32Array(shared);
  let seen = 0;
  while (Atomics.load(state, 1) === 0) {
    const commits = Atomics.load(state, 0);
    if (commits === seen) {
      Atomics.wait(state, 0, seen);
      continue;
    }
    seen = commits;
    // PASSIVE never waits for the writer and never fails on a busy database: SQLite reports it in
    // the result (PRAGMA wal_checkpoint turns SQLITE_BUSY into busy = 1), and the next commits
    // bring the next try.
    const [result] = db.pragma("wal_checkpoint(PASSIVE)") as { log: number }[];
    if (result && result.log >= restartFrames) parentPort?.postMessage("restart");
    Atomics.wait(state, 1, 0, intervalMs);
  }
  db.close();
}

const WORKER_SOURCE = `(${checkpointLoop.toString()})(require);`;

/**
 * Checkpoints a WAL database from a worker thread with a connection of its own. SQLite's own
 * checkpoint runs inside a COMMIT, on the event loop: every thousand pages it copied them to the
 * database file and synced both files, 8-14 ms during which no request or delivery moved (66 times
 * in 12 s of the real-clock bench, bench/HISTORY.md, sixth pass). Durability is the same:
 * the commits are as they were, only the copying moved. Until the worker runs (after
 * START_AFTER_COMMITS), or when it cannot run, SQLite's automatic checkpoint stays in force.
 *
 * The WAL starts over only when a write finds every frame copied, which a steady load never
 * lets happen: past RESTART_FRAMES the worker asks, and the connection restarts the WAL itself
 * between two batches (the worker cannot: the writer holds the lock nearly all the time). That
 * copies what the worker has not yet, a moment on the loop once per 32 MiB written.
 */
export class Checkpointer {
  readonly #raw: BetterSqlite3.Database;
  readonly #path: string;
  readonly #sqlite: (() => WorkerSqlite | undefined) | undefined;
  readonly #state = new Int32Array(new SharedArrayBuffer(8));
  #commits = 0;
  #worker: Worker | undefined;
  #stopped = false;
  #restartAsked = false;

  /** `sqlite` says how the worker loads better-sqlite3 (default: the module this one resolves). */
  constructor(raw: BetterSqlite3.Database, path: string, sqlite?: () => WorkerSqlite | undefined) {
    this.#raw = raw;
    this.#path = path;
    this.#sqlite = sqlite;
  }

  /** True while a worker does the checkpoints. */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /** A commit wrote to the WAL (called with no batch open). */
  committed(): void {
    if (this.#stopped) return;
    if (!this.#worker) {
      if (++this.#commits === START_AFTER_COMMITS) this.#start();
      return;
    }
    if (this.#restartAsked) this.#restartWal();
    Atomics.add(this.#state, COMMITS, 1);
    Atomics.notify(this.#state, COMMITS);
  }

  /**
   * Stops the worker and empties the WAL into the database file (the database closes). A
   * checkpoint the worker is in makes SQLite answer busy at once: this waits for it, blocking.
   */
  close(): void {
    this.#stop();
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let waited = 0; waited < CLOSE_WAIT_MS; waited += 5) {
      const [result] = this.#raw.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
      if (result?.busy === 0) return;
      Atomics.wait(pause, 0, 0, 5);
    }
  }

  /** Stops the worker; it closes its connection and ends on its own. */
  #stop(): void {
    this.#stopped = true;
    Atomics.store(this.#state, STOP, 1);
    // A count that moved, too: a worker about to wait for commits does not wait.
    Atomics.add(this.#state, COMMITS, 1);
    Atomics.notify(this.#state, STOP);
    Atomics.notify(this.#state, COMMITS);
  }

  #start(): void {
    const sqlite = this.#sqlite ? this.#sqlite() : defaultSqlite();
    if (!sqlite) return;
    const data: CheckpointerData = {
      path: this.#path,
      sqlite,
      state: this.#state.buffer as SharedArrayBuffer,
      intervalMs: INTERVAL_MS,
      restartFrames: RESTART_FRAMES,
    };
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: data });
    // It never keeps a process alive: stop() ends it, and so does the process.
    worker.unref();
    worker.on("message", () => {
      this.#restartAsked = true;
      if (!this.#raw.inTransaction) this.#restartWal();
    });
    worker.on("error", () => this.#fallBack(worker));
    worker.on("exit", () => this.#fallBack(worker));
    this.#worker = worker;
    this.#raw.pragma("wal_autocheckpoint = 0");
    // The commits so far: the first checkpoint comes at once.
    this.committed();
  }

  /**
   * Copies the frames left and has the next write start the WAL over. While the worker is in a
   * checkpoint of its own, SQLite answers busy at once: the next commit tries again.
   */
  #restartWal(): void {
    if (!this.#raw.open) return;
    const [result] = this.#raw.pragma("wal_checkpoint(RESTART)") as { busy: number }[];
    if (result?.busy === 0) this.#restartAsked = false;
  }

  /** The worker failed or ended: SQLite's own checkpoint takes over again. */
  #fallBack(worker: Worker): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    if (!this.#stopped && this.#raw.open) this.#raw.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT}`);
  }
}

/** better-sqlite3 as this module resolves it (a checkout, npm); undefined when it cannot. */
function defaultSqlite(): WorkerSqlite | undefined {
  try {
    return { require: createRequire(import.meta.url).resolve("better-sqlite3") };
  } catch {
    return undefined;
  }
}
