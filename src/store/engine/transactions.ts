import type BetterSqlite3 from "better-sqlite3";
import type { Db } from "./db.js";
import type { GroupCommit } from "./group-commit.js";

/**
 * `Db.transaction`: a savepoint of the open batch (the commit rules of `Db`), the batch begun
 * when none is open. The savepoints run here rather than through better-sqlite3's transaction(),
 * which builds four wrapper functions per call: on the hot paths that was a tenth of the
 * scheduler's time (bench/HISTORY.md).
 */
export function savepointTransactions(raw: BetterSqlite3.Database, batch: GroupCommit): Db["transaction"] {
  const savepoint = raw.prepare("SAVEPOINT msgctl");
  const release = raw.prepare("RELEASE msgctl");
  const rollbackTo = raw.prepare("ROLLBACK TO msgctl");
  return <T>(fn: () => T): T => {
    if (!raw.inTransaction) batch.begin();
    // A savepoint (nested ones stack under the same name): a throw undoes only fn's writes.
    savepoint.run();
    // The signals fn registers belong to its writes: undone with them when it throws.
    const signals = batch.signals;
    const signalsBefore = signals.length;
    try {
      const result = fn();
      if (typeof (result as { then?: unknown } | undefined)?.then === "function") {
        throw new TypeError("Transaction function cannot return a promise");
      }
      release.run();
      return result;
    } catch (error) {
      // SQLite may have rolled the whole batch back itself (a full disk): nothing left to undo.
      if (raw.inTransaction) {
        rollbackTo.run();
        release.run();
      }
      signals.length = signalsBefore;
      throw error;
    }
  };
}
