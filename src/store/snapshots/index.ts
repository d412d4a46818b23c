/**
 * Snapshots of the whole sandbox: the file format (an SQLite database with what the snapshot is
 * and the attachments' bytes), and where a sandbox keeps them (a folder, or memory). A store is
 * opened through open-store.ts, which loads better-sqlite3.
 */
export {
  type ExportedSnapshot,
  type OpenedSnapshot,
  type SnapshotContents,
  type SnapshotStore,
  type SnapshotStoreOptions,
} from "./snapshot-store.js";
export {
  SNAPSHOT_FORMAT,
  SnapshotFileProblem,
  type BlobSource,
  type SnapshotBlobs,
  type SnapshotInfo,
  type SnapshotKeys,
  type SnapshotMeta,
} from "./snapshot-file.js";
export { SNAPSHOT_EXTENSION } from "./folder-store.js";
