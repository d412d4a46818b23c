/**
 * The store's engine: the connection, its statements and compiled queries, transactions with
 * group commit and after-commit signals, WAL checkpoints, the schema and its migrations, the lock
 * that keeps a database file to one process. The concept folders build their queries on its
 * parts; the rest of msgctl opens the database here.
 */
export type { Db } from "./db.js";
export { fileOpener, openDatabase } from "./open.js";
export { lockDatabaseFile, type DatabaseLock } from "./database-lock.js";
export { COMMIT_INTERVAL_MS, LAZY_COMMIT_MS } from "./group-commit.js";
export { allColumns, compileOnce } from "./compiled-query.js";
export type { WorkerSqlite } from "./checkpointer.js";
export { MIGRATION_NAMES, migrateToLatest } from "./migrations/index.js";
export { applySchemaScript, isEmptyDatabase, migratedSchemaScript } from "./migrations/schema-script.js";
