import type BetterSqlite3 from "better-sqlite3";
import type { FileOpener } from "../engine/open.js";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { Kysely, SqliteDialect } from "kysely";
import type { ClockMode } from "../../lib/clock.js";
import { MIGRATION_NAMES, migrateToLatest } from "../engine/migrations/index.js";

/**
 * The snapshot file: an SQLite database holding every table of the sandbox as it was (schema and
 * migration bookkeeping included), plus two tables of its own: what the snapshot is (its format,
 * the msgctl that wrote it, the clock, the keys that could be shown) and the attachments' bytes.
 * Marked in its header by an application id, its format version in `user_version`
 * (docs/snapshots.md, "The file").
 */

/** The format this msgctl writes, and the newest it reads. Raise it when a reader of the old one could misread the file. */
const SNAPSHOT_FORMAT = 1;
/** "msgc": SQLite's header field that says which application a file belongs to. */
const APPLICATION_ID = 0x6d736763;
const INFO_TABLE = "msgctl_snapshot";
const BLOBS_TABLE = "msgctl_snapshot_blobs";
const SQLITE_MAGIC = "SQLite format 3\0";

/** Opens a snapshot file with the SQLite addon in use (the single binary brings its own). */
export type Connect = FileOpener;

/** An account's keys as the saving process could show them (a key shown at an earlier start is null). */
export interface SnapshotKeys {
  name: string;
  api_key: string | null;
  otp_api_key: string | null;
}

/** What a save records besides the tables. */
export interface SnapshotMeta {
  name: string;
  msgctlVersion: string;
  /** Wall-clock time of the save (ms). */
  savedAt: number;
  /** The sandbox clock's time at the save (ms). */
  clockMs: number;
  clockMode: ClockMode;
  keys: SnapshotKeys[];
}

/** A snapshot as listed: what it recorded, its format and its size. */
export interface SnapshotInfo extends SnapshotMeta {
  format: number;
  sizeBytes: number;
  /** Why it cannot be restored (a file in a snapshot folder that a newer msgctl wrote, say). */
  problem?: string;
  /**
   * What names this content and no other, for `Db.replaceFrom` (a file's device, inode, size and
   * modification time: a save, an import or an edit of the file changes it).
   */
  contentKey?: string;
}

/** Why a file cannot be restored or kept: a sentence about the file, to follow its name. */
export class SnapshotFileProblem extends Error {
  override readonly name = "SnapshotFileProblem";
  constructor(
    message: string,
    /** The file was refused for its size. */
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

/** A file that is a snapshot this msgctl can restore; `upgrade` when its schema is older (migrate a copy first). */
export interface CheckedSnapshot {
  info: SnapshotInfo;
  upgrade: boolean;
}

/** Why a snapshot file cannot be read, in a few words. */
const UNREADABLE: Record<string, string> = {
  ENOENT: "does not exist",
  EISDIR: "is a directory, not a snapshot file",
  EACCES: "cannot be read (permission denied)",
  EPERM: "cannot be read (permission denied)",
};

/** The header fields: SQLite's magic, then `user_version` (offset 60) and `application_id` (offset 68). */
function readHeader(path: string): { format: number; applicationId: number } | undefined {
  const header = Buffer.alloc(100);
  try {
    const fd = openSync(path, "r");
    try {
      if (readSync(fd, header, 0, 100, 0) < 100) return undefined;
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    throw new SnapshotFileProblem(UNREADABLE[code] ?? `cannot be read (${(error as Error).message})`);
  }
  if (header.toString("latin1", 0, 16) !== SQLITE_MAGIC) return undefined;
  return { format: header.readInt32BE(60), applicationId: header.readInt32BE(68) };
}

function readInfo(db: BetterSqlite3.Database, path: string, format: number): SnapshotInfo {
  const rows = db.prepare(`SELECT key, value FROM ${INFO_TABLE}`).raw(true).all() as [string, string][];
  const values = new Map(rows);
  const text = (key: string) => values.get(key) ?? "";
  const stat = statSync(path);
  return {
    name: text("name"),
    msgctlVersion: text("msgctl_version"),
    savedAt: Number(text("saved_at")),
    clockMs: Number(text("clock_ms")),
    clockMode: text("clock_mode") === "real" ? "real" : "manual",
    keys: JSON.parse(values.get("keys") ?? "[]") as SnapshotKeys[],
    format,
    sizeBytes: stat.size,
    contentKey: `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`,
  };
}

/**
 * Reads what a file says about itself. Throws SnapshotFileProblem when it is no msgctl snapshot,
 * or one written by a newer msgctl (a newer format, or tables this msgctl does not know).
 */
export function checkSnapshotFile(path: string, connect: Connect, ownVersion: string): CheckedSnapshot {
  const header = readHeader(path);
  if (!header || header.applicationId !== APPLICATION_ID) {
    throw new SnapshotFileProblem("is not a msgctl snapshot (export one with `msgctl snapshot export`)");
  }
  const db = connect(path, { readonly: true });
  try {
    const writer = () => {
      try {
        return `msgctl ${readInfo(db, path, header.format).msgctlVersion}`;
      } catch {
        return "a newer msgctl";
      }
    };
    if (header.format > SNAPSHOT_FORMAT) {
      throw new SnapshotFileProblem(
        `was written by ${writer()} in snapshot format ${header.format}; this msgctl (${ownVersion}) reads format ${SNAPSHOT_FORMAT} and older: upgrade msgctl to restore it`,
      );
    }
    const applied = db.prepare("SELECT name FROM kysely_migration").pluck().all() as string[];
    const unknown = applied.filter((name) => !MIGRATION_NAMES.includes(name));
    if (unknown.length > 0) {
      throw new SnapshotFileProblem(
        `was written by ${writer()}, whose database has tables this msgctl (${ownVersion}) does not know (${unknown.join(", ")}): upgrade msgctl to restore it`,
      );
    }
    return { info: readInfo(db, path, header.format), upgrade: applied.length < MIGRATION_NAMES.length };
  } catch (error) {
    if (error instanceof SnapshotFileProblem) throw error;
    throw new SnapshotFileProblem(`cannot be read as a msgctl snapshot (${(error as Error).message})`);
  } finally {
    db.close();
  }
}

/** Brings a snapshot file written by an older msgctl up to this one's schema, in place (run it on a copy). */
export async function upgradeSnapshotFile(path: string, connect: Connect): Promise<void> {
  const db = connect(path);
  const q = new Kysely<unknown>({ dialect: new SqliteDialect({ database: db }) });
  try {
    await migrateToLatest(q);
  } finally {
    await q.destroy();
  }
}

/** The bytes of attachments to put in a snapshot: each blob's hash and a way to read it. */
export interface BlobSource {
  hashes: readonly string[];
  read(hash: string): Promise<Buffer>;
}

/**
 * Makes a copy of the database (`Db.copyTo`) a snapshot file: records `meta`, stores the blobs,
 * marks the header. The file ends as one file (no WAL beside it), synced by its last commit.
 */
export async function finishSnapshotFile(
  path: string,
  meta: SnapshotMeta,
  blobs: BlobSource,
  connect: Connect,
): Promise<void> {
  const db = connect(path);
  try {
    db.pragma("journal_mode = DELETE");
    db.exec(`CREATE TABLE ${INFO_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    db.exec(`CREATE TABLE ${BLOBS_TABLE} (hash TEXT PRIMARY KEY, bytes BLOB NOT NULL)`);
    writeInfo(db, meta);
    const insertBlob = db.prepare(`INSERT INTO ${BLOBS_TABLE} (hash, bytes) VALUES (?, ?)`);
    for (const hash of blobs.hashes) insertBlob.run(hash, await blobs.read(hash));
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${SNAPSHOT_FORMAT}`);
  } finally {
    db.close();
  }
}

function writeInfo(db: BetterSqlite3.Database, meta: SnapshotMeta): void {
  const upsert = db.prepare(
    `INSERT INTO ${INFO_TABLE} (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
  db.transaction(() => {
    upsert.run("name", meta.name);
    upsert.run("msgctl_version", meta.msgctlVersion);
    upsert.run("saved_at", String(meta.savedAt));
    upsert.run("clock_ms", String(meta.clockMs));
    upsert.run("clock_mode", meta.clockMode);
    upsert.run("keys", JSON.stringify(meta.keys));
  })();
}

/** Records another name in a snapshot file (an import under a name of its own). */
export function renameSnapshotFile(path: string, name: string, connect: Connect): void {
  const db = connect(path);
  try {
    db.prepare(`UPDATE ${INFO_TABLE} SET value = ? WHERE key = 'name'`).run(name);
  } finally {
    db.close();
  }
}

/** The attachments' bytes a snapshot file holds: their hashes, and each one's bytes. */
export interface SnapshotBlobs {
  hashes: string[];
  read(hash: string): Buffer;
  close(): void;
}

/** Opens the blobs of a snapshot file for reading. */
export function openSnapshotBlobs(path: string, connect: Connect): SnapshotBlobs {
  const db = connect(path, { readonly: true });
  const read = db.prepare(`SELECT bytes FROM ${BLOBS_TABLE} WHERE hash = ?`).pluck();
  return {
    hashes: db.prepare(`SELECT hash FROM ${BLOBS_TABLE}`).pluck().all() as string[],
    read: (hash) => read.get(hash) as Buffer,
    close: () => db.close(),
  };
}
