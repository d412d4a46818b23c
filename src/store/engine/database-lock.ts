import BetterSqlite3 from "better-sqlite3";
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { AppError } from "../../lib/app-error.js";

/** A database file held by this process until `release()`. */
export interface DatabaseLock {
  /** The lock file beside the database. */
  readonly path: string;
  release(): void;
}

/** Who holds a database, as its lock file says. */
interface Holder {
  pid: number;
  token: string;
  since: string;
}

/** The lock file of a database file: kept beside it, never deleted (see `lockDatabaseFile`). */
const lockFileOf = (database: string) => `${database}.lock`;

// Rounds of "record who we are, then lock" before giving up on a file others keep taking.
const ATTEMPTS = 20;
// A round lost to another starter in the moment between its two steps waits this long (ms).
const RETRY_MS = 10;
// How long a read of the holder waits out another process's commit of its own record (ms).
const READ_WAIT_MS = 250;

/**
 * Holds a database file for this process, or throws 409 `database_locked` naming the file and the
 * pid that holds it. Nothing of the database itself is touched.
 *
 * How: the lock file is a tiny SQLite database whose write lock the holder keeps (`BEGIN
 * IMMEDIATE`, never committed), after committing its pid in it. SQLite's locks are the operating
 * system's (POSIX advisory locks), which die with their process however it ends (SIGKILL, a
 * crash, a power cut), so a lock is never stale and no pid has to be checked for life or reuse (a
 * container's pids repeat at every start). Others can still read the pid: the write lock lets
 * readers in. SQLite also keeps two connections of one process apart, so two `startSandbox({ db })`
 * in one test process are refused as two processes are. Why not `locking_mode = EXCLUSIVE` on
 * the database itself: it would shut out the checkpointer's connection (checkpointer.ts). The lock
 * file stays when the process ends: deleting it could let a process that opened it just before
 * lock a file no longer there while another made a new one.
 */
export function lockDatabaseFile(database: string, options: { nativeBinding?: object } = {}): DatabaseLock {
  const path = lockFileOf(database);
  mkdirSync(dirname(path), { recursive: true });
  const raw = new BetterSqlite3(path, {
    timeout: READ_WAIT_MS,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding as unknown as string } : {}),
  });
  const token = randomUUID();
  const pause = new Int32Array(new SharedArrayBuffer(4));
  try {
    for (let round = 0; round < ATTEMPTS; round++) {
      if (tryBegin(raw)) {
        raw.exec(
          "CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER, token TEXT, since TEXT)",
        );
        if (readHolder(raw)?.token === token) return { path, release: () => raw.close() };
        // Record who we are where others can read it, then take the lock again.
        raw
          .prepare("INSERT OR REPLACE INTO holder (id, pid, token, since) VALUES (1, ?, ?, ?)")
          .run(process.pid, token, new Date().toISOString());
        raw.exec("COMMIT");
        continue;
      }
      const holder = readHolder(raw);
      // Our own record with someone else holding the lock: they took it between our two steps
      // and are about to record themselves. Ask again in a moment.
      if (holder?.token !== token) throw lockedError(database, holder);
      Atomics.wait(pause, 0, 0, RETRY_MS);
    }
    throw lockedError(database, readHolder(raw));
  } catch (error) {
    raw.close();
    throw error;
  }
}

/** Takes the write lock, or false when another connection holds it. */
function tryBegin(raw: BetterSqlite3.Database): boolean {
  try {
    raw.exec("BEGIN IMMEDIATE");
    return true;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith("SQLITE_BUSY")) return false;
    throw error;
  }
}

/** The recorded holder, or undefined when none is recorded yet (or cannot be read right now). */
function readHolder(raw: BetterSqlite3.Database): Holder | undefined {
  try {
    return raw.prepare("SELECT pid, token, since FROM holder WHERE id = 1").get() as Holder | undefined;
  } catch {
    return undefined;
  }
}

function lockedError(database: string, holder: Holder | undefined): AppError {
  const who = !holder
    ? "another process"
    : holder.pid === process.pid
      ? `another sandbox in this process (pid ${holder.pid}, since ${holder.since})`
      : `another process (pid ${holder.pid}, since ${holder.since})`;
  return new AppError(
    "database_locked",
    409,
    `The database ${database} is in use by ${who}: one sandbox per database file. Stop that one, or use another database file`,
  );
}
