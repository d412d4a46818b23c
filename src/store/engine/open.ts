import BetterSqlite3 from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, SqliteDialect } from "kysely";
import { Checkpointer, type WorkerSqlite } from "./checkpointer.js";
import { createDb } from "./create-db.js";
import type { Db } from "./db.js";
import { migrateToLatest } from "./migrations/index.js";
import { applySchemaScript, isEmptyDatabase } from "./migrations/schema-script.js";
import type { Database } from "./schema.js";

/** Set by the builds: what the migrations leave in a new database, as one script (migrations/schema-script.ts). */
declare const __MSGCTL_SCHEMA_SCRIPT__: string | undefined;

/** How to open a database. */
export interface OpenOptions {
  /** The SQLite addon, when better-sqlite3 cannot find its own (the single binary). */
  nativeBinding?: object;
  /** How the checkpoint worker loads better-sqlite3, when it cannot resolve it (the single binary). */
  workerSqlite?: () => WorkerSqlite | undefined;
}

/** Opens an existing database file other than the sandbox's own (a snapshot file), with the given addon. */
export type FileOpener = (path: string, options?: { readonly?: boolean }) => BetterSqlite3.Database;

/** A FileOpener using the SQLite addon given, or better-sqlite3's own. */
export function fileOpener(nativeBinding?: object): FileOpener {
  const binding = nativeBinding ? { nativeBinding: nativeBinding as unknown as string } : {};
  return (path, { readonly = false } = {}) => new BetterSqlite3(path, { ...binding, readonly, fileMustExist: true });
}

/** Opens (creating when needed) a database file or `:memory:` and applies the migrations. */
export async function openDatabase(path: string, options: OpenOptions = {}): Promise<Db> {
  const inMemory = path === ":memory:";
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  // The typings say string, but better-sqlite3 takes the loaded addon object too (its database.js).
  const raw = new BetterSqlite3(
    path,
    options.nativeBinding ? { nativeBinding: options.nativeBinding as unknown as string } : {},
  );
  if (!inMemory) raw.pragma("journal_mode = WAL");
  raw.pragma("synchronous = NORMAL");
  raw.pragma("foreign_keys = ON");
  raw.pragma("busy_timeout = 5000");
  // Every transaction is a savepoint in a batch: the page images a savepoint may roll back to
  // (its sub-journal) stay in memory instead of going to temporary files, which cost a write
  // per page touched (bench/HISTORY.md).
  raw.pragma("temp_store = MEMORY");

  const q = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
  // A new database takes the built script in one exec; any other runs the migrations it lacks.
  if (typeof __MSGCTL_SCHEMA_SCRIPT__ === "string" && isEmptyDatabase(raw))
    applySchemaScript(raw, __MSGCTL_SCHEMA_SCRIPT__);
  else await migrateToLatest(q);
  const checkpointer = inMemory ? undefined : new Checkpointer(raw, path, options.workerSqlite);
  return createDb(raw, q, inMemory, checkpointer);
}
