import BetterSqlite3 from "better-sqlite3";
import type { Connect } from "./snapshot-file.js";
import { snapshotStore, type SnapshotStore, type SnapshotStoreOptions } from "./snapshot-store.js";

/**
 * Opens the snapshot store of a sandbox: files in `folder`, or memory. Apart from the store's
 * face because it loads better-sqlite3, which code that only reads the face (the domain, and
 * the build-time fixture parse that bundles it) must not.
 */
export function openSnapshotStore(
  options: Omit<SnapshotStoreOptions, "connect"> & {
    /** The SQLite addon, when better-sqlite3 cannot find its own (the single binary). */
    nativeBinding?: object;
  },
): SnapshotStore {
  const binding = options.nativeBinding ? { nativeBinding: options.nativeBinding as unknown as string } : {};
  const connect: Connect = (path, { readonly = false } = {}) =>
    new BetterSqlite3(path, { ...binding, readonly, fileMustExist: true });
  return snapshotStore({ folder: options.folder, version: options.version, connect });
}
