/**
 * The control API's rows beyond the database: snapshots of the whole sandbox, their file format
 * (an SQLite database with what the snapshot is and the attachments' bytes), and where a sandbox
 * keeps them (a folder, or memory). Files are opened with the engine's `fileOpener`, passed in:
 * better-sqlite3 itself is not loaded from here, so bundles of domain code stay without it.
 */
export { openSnapshotStore, type ExportedSnapshot, type OpenedSnapshot, type SnapshotStore } from "./snapshot-store.js";
export { SnapshotFileProblem, type SnapshotInfo, type SnapshotKeys } from "./snapshot-file.js";
