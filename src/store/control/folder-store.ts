import { randomUUID } from "node:crypto";
import { copyFileSync, createReadStream, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { checkSnapshotFile, SnapshotFileProblem, type SnapshotInfo } from "./snapshot-file.js";
import type { SnapshotFiles, SnapshotStore } from "./snapshot-store.js";

/** A store before `openFile` is added (the same for both kinds). */
type KindOfStore = Omit<SnapshotStore, "openFile">;

/** The extension of a snapshot file in a folder (and of an exported one, by default). */
const SNAPSHOT_EXTENSION = ".msgctl-snapshot";
/** Temporary files left by a process that died mid-save are removed once this old (real ms). */
const STALE_TEMP_MS = 24 * 3_600_000;

/**
 * Snapshots as files in a folder, `<name>.msgctl-snapshot` each. A save or an import is written
 * to `.<name>.<random>.tmp` in the same folder and renamed over the old file once complete: a
 * rename within a folder is atomic, so the name holds either the old snapshot or the new one.
 */
export function openFolderStore(folder: string, files: SnapshotFiles): KindOfStore {
  const pathOf = (name: string) => join(folder, `${name}${SNAPSHOT_EXTENSION}`);
  const tempFor = (name: string) => join(folder, `.${name}.${randomUUID()}.tmp`);
  removeStaleTemps(folder);

  const infoOf = (name: string): SnapshotInfo | undefined => {
    const path = pathOf(name);
    if (!existsSync(path)) return undefined;
    try {
      return { ...checkSnapshotFile(path, files.connect, files.version).info, name };
    } catch (error) {
      // Listed all the same, so that it can be deleted; a restore says what is wrong with it.
      if (!(error instanceof SnapshotFileProblem)) throw error;
      const { size, mtimeMs } = statSync(path);
      return {
        name,
        msgctlVersion: "",
        savedAt: mtimeMs,
        clockMs: 0,
        clockMode: "manual",
        keys: [],
        format: 0,
        sizeBytes: size,
        problem: `${name}${SNAPSHOT_EXTENSION} ${error.message}`,
      };
    }
  };

  /** Writes a temporary file with `fill`, readies it, and renames it over the name's file. */
  const keep = async (name: string, fill: (path: string) => Promise<void> | void): Promise<SnapshotInfo> => {
    mkdirSync(folder, { recursive: true });
    const temp = tempFor(name);
    try {
      await fill(temp);
      const info = await files.ready(temp, name);
      await rename(temp, pathOf(name));
      return { ...info, name };
    } finally {
      await rm(temp, { force: true });
    }
  };

  return {
    folder,
    list() {
      if (!existsSync(folder)) return [];
      return readdirSync(folder)
        .filter((file) => file.endsWith(SNAPSHOT_EXTENSION) && !file.startsWith("."))
        .map((file) => file.slice(0, -SNAPSHOT_EXTENSION.length))
        .sort()
        .flatMap((name) => infoOf(name) ?? []);
    },
    get: infoOf,
    save: (name, contents) => keep(name, (temp) => files.write(temp, contents)),
    async open(name) {
      const path = pathOf(name);
      if (!existsSync(path)) return undefined;
      const checked = checkSnapshotFile(path, files.connect, files.version);
      // Written by an older msgctl: brought up to this schema once, in place (atomically).
      if (checked.upgrade) await keep(name, (temp) => copyFileSync(path, temp));
      return files.opened(path, { ...checkSnapshotFile(path, files.connect, files.version).info, name });
    },
    async delete(name) {
      const path = pathOf(name);
      if (!existsSync(path)) return false;
      await rm(path, { force: true });
      return true;
    },
    export(name) {
      const path = pathOf(name);
      if (!existsSync(path)) return undefined;
      return { sizeBytes: statSync(path).size, stream: () => createReadStream(path) };
    },
    import: (source, name, limit) => keep(name, (temp) => files.copy(source, temp, limit)),
    async close() {},
  };
}

/** Removes the temporary files of saves that a process left behind when it died (a day old). */
function removeStaleTemps(folder: string): void {
  if (!existsSync(folder)) return;
  for (const file of readdirSync(folder)) {
    if (!file.startsWith(".") || !file.endsWith(".tmp")) continue;
    const path = join(folder, file);
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_TEMP_MS) void rm(path, { force: true });
    } catch {
      // gone meanwhile
    }
  }
}
