import type { Db } from "../store/database.js";
import { DUE_BATCH, listDueLanedJobs, type JobRow } from "../store/jobs.js";

/**
 * An advance runs the first attempts of every lane one at a time, in due order. The due laned
 * jobs are read ahead, a batch at a time, instead of the first one again before each attempt (a
 * statement per attempt, bench/README.md fifth pass). The order holds: a laned job is only ever
 * scheduled due at the clock's now with the newest id, so one scheduled after a read sorts after
 * every job it returned, and is found by the next read. A job removed meanwhile (its endpoint
 * deleted or paused) is still handed out: its attempt finds the delivery no longer pending.
 *
 * Like the free jobs' queue, it remembers the clock time at which a read found every due laned
 * job: until the clock moves or one may have been scheduled (`changed`), another read would find
 * nothing new. While retries run side by side, the scheduler looks for a first attempt each time
 * one settles (35,479 reads in a `delivery-500` advance, bench/README.md).
 */
export class SerialLaneQueue {
  readonly #db: Db;
  #jobs: JobRow[] = [];
  #next = 0;
  #readAllAt: number | undefined;

  constructor(db: Db) {
    this.#db = db;
  }

  /** The next due laned job in due order, or undefined when none is due at `now`. */
  shift(now: number): JobRow | undefined {
    if (this.#next === this.#jobs.length) {
      if (this.#readAllAt === now) return undefined;
      this.#jobs = listDueLanedJobs(this.#db, now);
      this.#next = 0;
      this.#readAllAt = this.#jobs.length < DUE_BATCH ? now : undefined;
      if (this.#jobs.length === 0) return undefined;
    }
    return this.#jobs[this.#next++];
  }

  /** A laned job may have been scheduled: the next shift past the jobs read reads again. */
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
