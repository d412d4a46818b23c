import { randomUUID } from "node:crypto";
import { copyFileSync, createWriteStream, mkdtempSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { openFolderStore } from "./folder-store.js";
import { openMemoryStore } from "./memory-store.js";
import {
  checkSnapshotFile,
  finishSnapshotFile,
  SnapshotFileProblem,
  openSnapshotBlobs,
  renameSnapshotFile,
  upgradeSnapshotFile,
  type BlobSource,
  type Connect,
  type SnapshotBlobs,
  type SnapshotInfo,
  type SnapshotMeta,
} from "./snapshot-file.js";

/** A snapshot file to read from, until `release()`. */
export interface OpenedSnapshot {
  path: string;
  info: SnapshotInfo;
  /** The attachments' bytes it holds (close them when done). */
  blobs(): SnapshotBlobs;
  release(): Promise<void>;
}

/** What a save puts in a snapshot. */
export interface SnapshotContents {
  /** Writes a copy of the database to a new file at `path` (`Db.copyTo`). */
  copyDatabase(path: string): void;
  meta: SnapshotMeta;
  blobs: BlobSource;
}

/** The bytes of an exported snapshot: one file. */
export interface ExportedSnapshot {
  sizeBytes: number;
  stream(): Readable;
}

/**
 * Where one sandbox's snapshots are kept: files in a folder (a database file's sandbox), or
 * memory (`:memory:`'s, until exported). Names are checked by the caller. A save or an import is
 * written to a temporary file first and takes the name only once complete, so a failure never
 * touches the snapshot that had the name before.
 */
export interface SnapshotStore {
  /** The folder of the files, or undefined in memory. */
  readonly folder: string | undefined;
  /** Every snapshot, by name. */
  list(): SnapshotInfo[];
  get(name: string): SnapshotInfo | undefined;
  /** Saves `contents` under `name`, replacing a snapshot of that name once complete. */
  save(name: string, contents: SnapshotContents): Promise<SnapshotInfo>;
  /** The snapshot's file, checked and brought up to this msgctl's schema; undefined for an unknown name. */
  open(name: string): Promise<OpenedSnapshot | undefined>;
  /** Removes a snapshot; false when there was none of that name. */
  delete(name: string): Promise<boolean>;
  /** The snapshot as one file; undefined for an unknown name. */
  export(name: string): ExportedSnapshot | undefined;
  /**
   * Keeps a copy of a snapshot file (checked, upgraded when older) under `name`: from a path, or
   * from its bytes as they arrive (at most `limit` of them).
   */
  import(source: string | Readable, name: string, limit: number): Promise<SnapshotInfo>;
  /** An exported snapshot file given by path, checked (an older one upgraded in a temporary copy). */
  openFile(path: string): Promise<OpenedSnapshot>;
  /** Lets go of temporary files. */
  close(): Promise<void>;
}

/** How to open a store. */
export interface SnapshotStoreOptions {
  /** The folder of the snapshot files; undefined keeps them in memory. */
  folder?: string;
  /** Opens a snapshot file (the engine's `fileOpener`, with the addon in use). */
  connect: Connect;
  /** This msgctl's version, to name in refusals. */
  version: string;
}

/** What both kinds of store share: opening, writing and readying snapshot files with one addon. */
export interface SnapshotFiles {
  connect: Connect;
  version: string;
  /** Writes a new snapshot file at `path`. */
  write(path: string, contents: SnapshotContents): Promise<void>;
  /** Checks a complete file and brings it up to this schema (it is in a temporary place); records `name` in it. */
  ready(path: string, name: string): Promise<SnapshotInfo>;
  /** A checked file to read from; `release` removes it when it was a temporary one. */
  opened(path: string, info: SnapshotInfo, release?: () => Promise<void>): OpenedSnapshot;
  /** Copies a file, or bytes as they arrive (at most `limit`), to `target`. */
  copy(source: string | Readable, target: string, limit: number): Promise<void>;
}

/** Opens the snapshot store of a sandbox: files in `folder`, or memory. */
export function openSnapshotStore(options: SnapshotStoreOptions): SnapshotStore {
  const files = snapshotFiles(options);
  const store = options.folder === undefined ? openMemoryStore(files) : openFolderStore(options.folder, files);
  return { ...store, openFile: (path) => openSnapshotFile(path, files) };
}

/** Copies bytes as they arrive to a new file, refusing more than `limit` of them. */
async function copyStream(source: Readable, target: string, limit: number): Promise<void> {
  let size = 0;
  const counted = async function* () {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw new SnapshotFileProblem(`is larger than ${Math.floor(limit / 1024 ** 2)} MiB`, true);
      yield chunk;
    }
  };
  await pipeline(counted, createWriteStream(target, { flags: "wx" }));
}

/** Opening and readying snapshot files with one addon. */
function snapshotFiles(options: Omit<SnapshotStoreOptions, "folder">): SnapshotFiles {
  const { connect } = options;
  return {
    connect,
    version: options.version,
    async write(path, contents) {
      contents.copyDatabase(path);
      await finishSnapshotFile(path, contents.meta, contents.blobs, connect);
    },
    opened: (path, info, release = async () => {}) => ({
      path,
      info,
      blobs: () => openSnapshotBlobs(path, connect),
      release,
    }),
    async copy(source, target, limit) {
      if (typeof source !== "string") return copyStream(source, target, limit);
      if (statSync(source).size > limit) {
        throw new SnapshotFileProblem(`is larger than ${Math.floor(limit / 1024 ** 2)} MiB`, true);
      }
      copyFileSync(source, target);
    },
    async ready(path, name) {
      const checked = checkSnapshotFile(path, connect, options.version);
      if (checked.upgrade) await upgradeSnapshotFile(path, connect);
      if (checked.info.name !== name) renameSnapshotFile(path, name, connect);
      return checkSnapshotFile(path, connect, options.version).info;
    },
  };
}

/**
 * A snapshot file given by path (`serve --restore FILE`), checked; one written by an older msgctl
 * is upgraded in a temporary copy, the file itself is never written.
 */
async function openSnapshotFile(path: string, files: SnapshotFiles): Promise<OpenedSnapshot> {
  const checked = checkSnapshotFile(path, files.connect, files.version);
  if (!checked.upgrade) return files.opened(path, checked.info);
  const folder = mkdtempSync(join(tmpdir(), "msgctl-restore-"));
  const release = () => rm(folder, { recursive: true, force: true });
  try {
    const copy = join(folder, `${randomUUID()}.msgctl-snapshot`);
    copyFileSync(path, copy);
    return files.opened(copy, await files.ready(copy, checked.info.name), release);
  } catch (error) {
    await release();
    throw error;
  }
}
