import { createHash, randomUUID } from "node:crypto";
import { readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { openFileBlobStore } from "./blob-files.js";
import { consume, headCollector } from "./blob-streams.js";

/**
 * The bytes of attachments, stored by content (the SHA-256 of the bytes is the name): the database
 * keeps only metadata and the hash. File-backed next to a database file, in memory for `:memory:`.
 */
export interface BlobStore {
  /**
   * Streams bytes into a staging area, hashing and counting as they come; nothing is visible
   * until `commit`. Stops reading (without destroying the source) once more than `limit` bytes
   * arrived, and answers `{ tooLarge: true }`.
   */
  stage(source: Readable, limit: number): Promise<StageResult>;
  /** Stores bytes made in memory (a transcoded image); returns their hash. */
  put(bytes: Uint8Array): Promise<string>;
  /** Moves a finished file (a transcoded video) into the store; returns its hash. */
  importFile(path: string): Promise<string>;
  /** True when the store holds these bytes. */
  has(hash: string): boolean;
  /** Reads bytes `start`..`end` (inclusive; the whole blob by default). */
  read(hash: string, range?: { start: number; end: number }): Readable;
  /** The whole blob in memory (a snapshot's save). */
  bytes(hash: string): Promise<Buffer>;
  /** Removes every blob not in `keep` (a restore: the bytes of attachments it undid). */
  prune(keep: ReadonlySet<string>): Promise<void>;
  /** Runs `fn` with a local file holding the blob (a temporary copy for the memory store). */
  withLocalFile<T>(hash: string, fn: (path: string) => Promise<T>): Promise<T>;
  /** A fresh path in a scratch folder, for tools that write files (ffmpeg); the caller removes it. */
  scratchPath(extension: string): string;
  /** Forgets every blob (reset). */
  clear(): Promise<void>;
}

/** Bytes staged but not yet committed. */
export interface StagedBlob {
  tooLarge: false;
  /** SHA-256, hex. */
  hash: string;
  size: number;
  /** The first bytes (up to HEAD_BYTES): enough to sniff the type. */
  head: Buffer;
  /** Makes the bytes readable under `hash`; idempotent when the store has them already. */
  commit(): Promise<void>;
  /** Drops the staged bytes. */
  discard(): Promise<void>;
}

/** What `stage` answers: the staged bytes, or that the source went over the limit. */
export type StageResult = StagedBlob | { tooLarge: true };

/** The blob store next to a database: `<db>.blobs/` for a file, memory for `:memory:`. */
export function openBlobStore(dbPath: string): BlobStore {
  return dbPath === ":memory:" ? createMemoryBlobStore() : openFileBlobStore(`${dbPath}.blobs`);
}

/** Blobs in a Map: the store of `:memory:` sandboxes (tests, `startSandbox()`). */
export function createMemoryBlobStore(): BlobStore {
  const blobs = new Map<string, Buffer>();
  // Scratch files sit straight in the system's temporary folder: a folder of its own would outlive the process.
  const scratchFile = (extension: string) => join(tmpdir(), `msgctl-scratch-${randomUUID()}${extension}`);
  const bytesOf = (hash: string) => {
    const bytes = blobs.get(hash);
    if (!bytes) throw new Error(`No blob ${hash}`);
    return bytes;
  };
  const put = async (bytes: Uint8Array) => {
    const hash = createHash("sha256").update(bytes).digest("hex");
    if (!blobs.has(hash)) blobs.set(hash, Buffer.from(bytes));
    return hash;
  };
  return {
    async stage(source, limit) {
      const chunks: Buffer[] = [];
      const hasher = createHash("sha256");
      const head = headCollector();
      let size = 0;
      const complete = await consume(source, (chunk) => {
        size += chunk.length;
        if (size > limit) return false;
        hasher.update(chunk);
        head.add(chunk);
        chunks.push(chunk);
        return true;
      });
      if (!complete) return { tooLarge: true };
      const hash = hasher.digest("hex");
      return {
        tooLarge: false,
        hash,
        size,
        head: head.head(),
        async commit() {
          if (!blobs.has(hash)) blobs.set(hash, Buffer.concat(chunks));
        },
        async discard() {
          chunks.length = 0;
        },
      };
    },
    put,
    async importFile(path) {
      const hash = await put(await readFile(path));
      await rm(path, { force: true });
      return hash;
    },
    has: (hash) => blobs.has(hash),
    bytes: async (hash) => bytesOf(hash),
    async prune(keep) {
      for (const hash of blobs.keys()) if (!keep.has(hash)) blobs.delete(hash);
    },
    read(hash, range) {
      const bytes = bytesOf(hash);
      return Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]);
    },
    async withLocalFile(hash, fn) {
      const path = scratchFile("");
      await writeFile(path, bytesOf(hash));
      try {
        return await fn(path);
      } finally {
        await rm(path, { force: true });
      }
    },
    scratchPath: scratchFile,
    async clear() {
      blobs.clear();
    },
  };
}
