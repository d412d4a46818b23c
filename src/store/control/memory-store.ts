import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { SnapshotInfo } from "./snapshot-file.js";
import type { SnapshotFiles, SnapshotStore } from "./snapshot-store.js";

/** A store before `openFile` is added (the same for both kinds). */
type KindOfStore = Omit<SnapshotStore, "openFile">;

/**
 * The snapshots of a `:memory:` sandbox: each one the bytes of its file, held in this process
 * until exported. SQLite reads a snapshot from a file, so a save and an import pass through a
 * private temporary folder; a snapshot restored is written there once, and its file is removed
 * with it (replaced, deleted, or the sandbox stopped).
 */
export function openMemoryStore(files: SnapshotFiles): KindOfStore {
  /** Each snapshot's bytes, and the file SQLite reads them from once a restore needed it. */
  const snapshots = new Map<string, { bytes: Buffer; info: SnapshotInfo; file?: string }>();
  const forget = async (name: string) => {
    const file = snapshots.get(name)?.file;
    snapshots.delete(name);
    if (file) await rm(file, { force: true });
  };
  let folder: string | undefined;
  const tempFile = () => {
    folder ??= mkdtempSync(join(tmpdir(), "msgctl-snapshots-"));
    return join(folder, `${randomUUID()}.tmp`);
  };

  /** Fills a temporary file, readies it, and keeps its bytes under `name`. */
  const keep = async (name: string, fill: (path: string) => Promise<void> | void): Promise<SnapshotInfo> => {
    const temp = tempFile();
    try {
      await fill(temp);
      // A key of its own: the temporary files it passes through are never the same file twice.
      const info = { ...(await files.ready(temp, name)), name, contentKey: randomUUID() };
      const bytes = await readFile(temp);
      await forget(name);
      snapshots.set(name, { bytes, info });
      return info;
    } finally {
      await rm(temp, { force: true });
    }
  };

  return {
    folder: undefined,
    list: () => [...snapshots.keys()].sort().map((name) => snapshots.get(name)?.info as SnapshotInfo),
    get: (name) => snapshots.get(name)?.info,
    save: (name, contents) => keep(name, (temp) => files.write(temp, contents)),
    async open(name) {
      const snapshot = snapshots.get(name);
      if (!snapshot) return undefined;
      // Written once and kept while the snapshot is: restoring before each test rewrites no file.
      if (!snapshot.file) {
        const file = tempFile();
        await writeFile(file, snapshot.bytes);
        snapshot.file = file;
      }
      return files.opened(snapshot.file, snapshot.info);
    },
    async delete(name) {
      const had = snapshots.has(name);
      await forget(name);
      return had;
    },
    export(name) {
      const snapshot = snapshots.get(name);
      if (!snapshot) return undefined;
      return { sizeBytes: snapshot.bytes.length, stream: () => Readable.from([snapshot.bytes]) };
    },
    import: (source, name, limit) => keep(name, (temp) => files.copy(source, temp, limit)),
    async close() {
      snapshots.clear();
      if (folder) await rm(folder, { recursive: true, force: true });
      folder = undefined;
    },
  };
}
