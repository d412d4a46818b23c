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
 * until exported. SQLite reads a snapshot from a file, so a save, an import and a restore pass
 * through a private temporary folder, and remove their file as soon as they are done with it.
 */
export function openMemoryStore(files: SnapshotFiles): KindOfStore {
  const snapshots = new Map<string, { bytes: Buffer; info: SnapshotInfo }>();
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
      const info = { ...(await files.ready(temp, name)), name };
      snapshots.set(name, { bytes: await readFile(temp), info });
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
      const path = tempFile();
      await writeFile(path, snapshot.bytes);
      return files.opened(path, snapshot.info, () => rm(path, { force: true }));
    },
    async delete(name) {
      return snapshots.delete(name);
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
