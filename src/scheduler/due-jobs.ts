import type { Db } from "../store/engine/index.js";
import { DUE_BATCH, FIRST_JOB, type JobCursor, type JobRow } from "../store/core/index.js";

/**
 * Due jobs read ahead in due order, a batch at a time: one read serves many starts. The scheduler
 * keeps two: the free jobs (no lane), and in an advance the first attempts of every lane, which
 * an advance runs one at a time in due order (bench/HISTORY.md, fourth and fifth passes).
 *
 * It also remembers the clock time at which a read found every due job (fewer than a batch):
 * until the clock moves or a job of its kind may have been scheduled (`changed`), another read
 * would find nothing new. In an advance a lane's thousand first attempts run at one instant, and
 * each used to read the free jobs again first; while retries run side by side, the first attempts
 * were read again each time one settled (35,479 reads in a `delivery-500` advance, sixth pass).
 *
 * For first attempts the order holds across reads: a laned job is only ever scheduled due at the
 * clock's now with the newest id, so one scheduled after a read sorts after every job it
 * returned, and is found by the next read. A job removed meanwhile (its endpoint deleted or
 * paused) is still handed out: its attempt finds the delivery no longer pending. First attempts
 * are not marked running (scheduler.ts): their read starts after the last one handed out, so
 * that it never returns one in flight or one whose record is not written yet. Free jobs are
 * marked running, and their read takes no cursor: a retry may be scheduled due before one
 * already handed out.
 */
export class DueJobQueue {
  readonly #db: Db;
  readonly #read: (db: Db, now: number, after: JobCursor) => JobRow[];
  #jobs: JobRow[] = [];
  #next = 0;
  /** The last job handed out since the queue was last emptied (`forget`). */
  #after: JobCursor = FIRST_JOB;
  #readAllAt: number | undefined;

  /** `read` returns the due jobs of this queue's kind at `now` (after `after`, for laned jobs), DUE_BATCH at most. */
  constructor(db: Db, read: (db: Db, now: number, after: JobCursor) => JobRow[]) {
    this.#db = db;
    this.#read = read;
  }

  /** The next job read and not yet started, or undefined when they are used up. */
  shift(): JobRow | undefined {
    const job = this.#next < this.#jobs.length ? this.#jobs[this.#next++] : undefined;
    if (job) this.#after = job;
    return job;
  }

  /** Reads the jobs due at `now`; false when nothing new can be due or the read found none. */
  refill(now: number): boolean {
    if (this.#readAllAt === now) return false;
    this.#jobs = this.#read(this.#db, now, this.#after);
    this.#next = 0;
    this.#readAllAt = this.#jobs.length < DUE_BATCH ? now : undefined;
    return this.#jobs.length > 0;
  }

  /** The next job due at `now`, reading again when those read are used up. */
  next(now: number): JobRow | undefined {
    return this.shift() ?? (this.refill(now) ? this.shift() : undefined);
  }

  /** A job of this kind may have been scheduled: the next refill reads. */
  changed(): void {
    this.#readAllAt = undefined;
  }

  /** Forgets what was read (a reset may have emptied or refilled the jobs); only with no job in flight or unwritten. */
  forget(): void {
    this.#jobs = [];
    this.#next = 0;
    this.#after = FIRST_JOB;
    this.#readAllAt = undefined;
  }
}
