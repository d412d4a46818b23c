import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, mkdirSync, type WriteStream } from "node:fs";
import { readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import type { BlobStore } from "./blob-store.js";
import { consume, headCollector } from "./blob-streams.js";

/** Writes a chunk, resolving once the file stream can take more (backpressure). */
function write(file: WriteStream, chunk: Buffer): boolean | Promise<boolean> {
  if (file.write(chunk)) return true;
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      file.off("error", onError);
      resolve(true);
    };
    const onError = (error: Error) => {
      file.off("drain", onDrain);
      reject(error);
    };
    file.once("drain", onDrain);
    file.once("error", onError);
  });
}

const closed = (file: WriteStream) =>
  new Promise<void>((resolve, reject) => {
    file.once("error", reject);
    file.end(() => resolve());
  });

/**
 * Blobs as files under `root`: `<root>/<first two hex>/<sha256>`. An upload streams to a file in
 * `<root>/tmp/` while it is hashed, and is renamed into place by its hash on commit, so a 100 MiB
 * upload never sits in memory and a half-written file is never visible under a hash.
 */
export function openFileBlobStore(root: string): BlobStore {
  const tmp = join(root, "tmp");
  mkdirSync(tmp, { recursive: true });
  const pathOf = (hash: string) => join(root, hash.slice(0, 2), hash);
  const tempPath = (extension = "") => join(tmp, `${randomUUID()}${extension}`);

  /** Moves a finished temporary file under its hash (or drops it when the store has it). */
  const place = async (temp: string, hash: string) => {
    const target = pathOf(hash);
    if (existsSync(target)) return void (await rm(temp, { force: true }));
    mkdirSync(dirname(target), { recursive: true });
    await rename(temp, target);
  };

  const hashFile = async (path: string) => {
    const hasher = createHash("sha256");
    await pipeline(createReadStream(path), hasher);
    return hasher.digest("hex");
  };

  return {
    async stage(source, limit) {
      const temp = tempPath();
      const file = createWriteStream(temp);
      const hasher = createHash("sha256");
      const head = headCollector();
      let size = 0;
      let complete: boolean;
      try {
        complete = await consume(source, (chunk) => {
          size += chunk.length;
          if (size > limit) return false;
          hasher.update(chunk);
          head.add(chunk);
          return write(file, chunk);
        });
        await closed(file);
      } catch (error) {
        file.destroy();
        await rm(temp, { force: true });
        throw error;
      }
      if (!complete) {
        await rm(temp, { force: true });
        return { tooLarge: true };
      }
      const hash = hasher.digest("hex");
      return {
        tooLarge: false,
        hash,
        size,
        head: head.head(),
        commit: () => place(temp, hash),
        discard: () => rm(temp, { force: true }),
      };
    },
    async put(bytes) {
      const hash = createHash("sha256").update(bytes).digest("hex");
      if (existsSync(pathOf(hash))) return hash;
      const temp = tempPath();
      await writeFile(temp, bytes);
      await place(temp, hash);
      return hash;
    },
    async importFile(path) {
      const hash = await hashFile(path);
      const temp = tempPath();
      // The scratch file may be on the same disk (rename) or not: rename into tmp/ first.
      await rename(path, temp);
      await place(temp, hash);
      return hash;
    },
    has: (hash) => existsSync(pathOf(hash)),
    bytes: (hash) => readFile(pathOf(hash)),
    async prune(keep) {
      for (const entry of await readdir(root)) {
        if (!/^[0-9a-f]{2}$/.test(entry)) continue;
        for (const hash of await readdir(join(root, entry))) {
          if (!keep.has(hash)) await rm(join(root, entry, hash), { force: true });
        }
      }
    },
    read: (hash, range) => createReadStream(pathOf(hash), range ? { start: range.start, end: range.end } : {}),
    withLocalFile: (hash, fn) => fn(pathOf(hash)),
    scratchPath: (extension) => tempPath(extension),
    async clear() {
      for (const entry of await readdir(root)) await rm(join(root, entry), { recursive: true, force: true });
      mkdirSync(tmp, { recursive: true });
    },
  };
}
