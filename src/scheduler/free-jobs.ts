import type { Db } from "../store/database.js";
import { DUE_BATCH, listDueFreeJobs, type JobRow } from "../store/jobs.js";

/**
 * Due jobs without a lane, read ahead in due order: one read serves many starts. It also
 * remembers the clock time at which a read found every due free job (fewer than a batch): until
 * the clock moves or a free job is scheduled (`changed`), another read would find nothing new. In
 * an advance a lane's thousand first attempts run at one instant, and each used to read the free
 * jobs again first.
 */
export class FreeJobQueue {
  readonly #db: Db;
  #jobs: JobRow[] = [];
  #next = 0;
  #readAllAt: number | undefined;

  constructor(db: Db) {
    this.#db = db;
  }

  /** The next job read and not yet started, or undefined when they are used up. */
  shift(): JobRow | undefined {
    return this.#next < this.#jobs.length ? this.#jobs[this.#next++] : undefined;
  }

  /** Reads the free jobs due at `now`; false when nothing new can be due or the read found none. */
  refill(now: number): boolean {
    if (this.#readAllAt === now) return false;
    this.#jobs = listDueFreeJobs(this.#db, now);
    this.#next = 0;
    this.#readAllAt = this.#jobs.length < DUE_BATCH ? now : undefined;
    return this.#jobs.length > 0;
  }

  /** A free job may have been scheduled: the next refill reads. */
  changed(): void {
    this.#readAllAt = undefined;
  }

  /** Forgets what was read (a reset may have emptied or refilled the jobs). */
  forget(): void {
    this.#jobs = [];
    this.#next = 0;
    this.#readAllAt = undefined;
  }
}
