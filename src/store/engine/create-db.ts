import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";
import type { Checkpointer } from "./checkpointer.js";
import { commitListeners } from "./commit-listeners.js";
import type { Db } from "./db.js";
import { groupCommit } from "./group-commit.js";
import { maintenance } from "./maintenance.js";
import { queryRunner } from "./queries.js";
import type { Database } from "./schema.js";
import { savepointTransactions } from "./transactions.js";
import { wholeDatabase } from "./whole-database.js";

/**
 * The `Db` of an open connection, put together from its parts. Each method is the part's own
 * function, not a wrapper around it: a statement pays no extra call.
 */
export function createDb(
  raw: BetterSqlite3.Database,
  q: Kysely<Database>,
  inMemory: boolean,
  checkpointer: Checkpointer | undefined,
): Db {
  const listeners = commitListeners(checkpointer);
  const batch = groupCommit(raw, listeners.wrote);
  const { all, first, run } = queryRunner(raw, listeners.wrote);
  const { wipe, tablesWithColumn, deleteWhere } = maintenance(raw, listeners.wrote);
  const { committed, urgentCommitted, afterCommit, deferSignals } = batch;
  const { copyTo, replaceFrom, stopTracking } = wholeDatabase(raw, batch, listeners.wrote);
  return {
    q,
    inMemory,
    get walCheckpoints() {
      if (!checkpointer) return "none";
      return checkpointer.running ? "worker" : "in-commit";
    },
    all,
    first,
    run,
    transaction: savepointTransactions(raw, batch),
    committed,
    urgentCommitted,
    afterCommit,
    deferSignals,
    onCommit: listeners.onCommit,
    wipe() {
      // Every row goes: nothing is left to compare with a snapshot, and untracked deletes are quick.
      stopTracking();
      wipe();
    },
    copyTo,
    replaceFrom,
    tablesWithColumn,
    deleteWhere,
    close() {
      if (!raw.open) return;
      batch.commit();
      checkpointer?.close();
      raw.close();
    },
  };
}
