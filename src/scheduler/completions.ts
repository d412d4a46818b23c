import type { JobCompletion } from "../domain/core/index.js";
import type { Db } from "../store/engine/index.js";
import { deleteJob, type JobRow } from "../store/core/index.js";

/** At most this many finished jobs wait to be written… */
const MAX_BATCH = 64;
/** …and at most this long (real milliseconds). */
const MAX_WAIT_MS = 10;

/**
 * Async jobs that finished, written in batches: one transaction removes a batch of jobs and runs
 * their completion writes (a webhook attempt's record), in the order they finished; a write that
 * throws undoes only its own changes. Under load most of an attempt's cost was the commit of its own small transaction
 * (bench/HISTORY.md). A crash before a batch is written leaves its jobs `running`: they run again
 * at the next start, as they would had the crash come during the attempt (delivery is at least once).
 */
export class CompletionBatch {
  readonly #db: Db;
  readonly #onError: (job: JobRow, error: unknown) => void;
  readonly #around: (job: JobRow, write: () => void) => void;
  #pending: { job: JobRow; write: JobCompletion | undefined }[] = [];
  #timer: NodeJS.Timeout | undefined;
  #immediate: NodeJS.Immediate | undefined;

  /** `around` runs each job's write (settles watch what it schedules: settling.ts). */
  constructor(
    db: Db,
    onError: (job: JobRow, error: unknown) => void,
    around: (job: JobRow, write: () => void) => void = (_job, write) => write(),
  ) {
    this.#db = db;
    this.#onError = onError;
    this.#around = around;
  }

  /** Jobs waiting to be written. */
  get size(): number {
    return this.#pending.length;
  }

  /** Queues a finished job (and its completion write); written within MAX_WAIT_MS. */
  add(job: JobRow, write: JobCompletion | undefined): void {
    this.#pending.push({ job, write });
    if (this.#pending.length === MAX_BATCH) {
      // Written after this turn, not now: the job that finished lets its lane's next attempt
      // start first, and the batch is written while that attempt is on the wire.
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#immediate ??= setImmediate(() => this.flush());
    } else if (!this.#immediate) this.#timer ??= setTimeout(() => this.flush(), MAX_WAIT_MS);
  }

  /** Writes every queued job now, in one transaction. */
  flush(): void {
    clearTimeout(this.#timer);
    clearImmediate(this.#immediate);
    this.#timer = undefined;
    this.#immediate = undefined;
    const batch = this.#pending;
    if (batch.length === 0) return;
    this.#pending = [];
    // Every write at once in one savepoint; only when one throws, again one savepoint each, so
    // that it undoes only its own changes. Two statements per job fewer on the common path (a
    // tenth of a retrying delivery's writes, bench/HISTORY.md).
    try {
      this.#db.transaction(() => {
        for (const { job, write } of batch) {
          if (write) this.#around(job, write);
          deleteJob(this.#db, job.id);
        }
      });
      return;
    } catch {
      // Undone as a whole: written again below, one at a time.
    }
    const failed: { job: JobRow; error: unknown }[] = [];
    this.#db.transaction(() => {
      for (const { job, write } of batch) {
        try {
          this.#db.transaction(() => {
            if (write) this.#around(job, write);
            deleteJob(this.#db, job.id);
          });
        } catch (error) {
          failed.push({ job, error });
        }
      }
    });
    for (const { job, error } of failed) this.#onError(job, error);
  }
}
