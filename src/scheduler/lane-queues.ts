import type { Db } from "../store/engine/index.js";
import { listLaneJobs, listPendingLanes, type JobCursor, type JobRow } from "../store/core/index.js";

/** A lane's jobs read ahead, and the index of the next one. */
interface ReadAhead {
  jobs: JobRow[];
  next: number;
}

/**
 * The lanes that may have pending jobs (first attempts to one webhook endpoint each), and each
 * one's next jobs read ahead, LANE_BATCH at a time: outside an advance a lane's next job is
 * started as soon as the one before settles, and it was read again first, a statement per
 * attempt (bench/HISTORY.md, sixth pass). The order holds as in due-jobs.ts: a laned job is
 * only scheduled due at the clock's now with the newest id, so one scheduled after a read sorts
 * after every job it returned. A job removed meanwhile (its endpoint deleted or paused) is still
 * handed out: its attempt finds the delivery no longer pending.
 *
 * Laned jobs are not marked running (scheduler.ts): a lane's read starts after the last job it
 * handed out, remembered while the lane has nothing pending too, so that it never returns a job
 * that ran and whose record is not written yet.
 */
export class LaneQueues {
  readonly #db: Db;
  readonly #lanes = new Map<string, ReadAhead>();
  /** Each lane's last job handed out, until `reload`. */
  readonly #taken = new Map<string, JobCursor>();

  constructor(db: Db) {
    this.#db = db;
  }

  /** A lane that may have pending jobs (a wake-up said so). */
  add(lane: string): void {
    if (!this.#lanes.has(lane)) this.#lanes.set(lane, { jobs: [], next: 0 });
  }

  /** The lanes that may have pending jobs. */
  lanes(): IterableIterator<string> {
    return this.#lanes.keys();
  }

  /** The lane's next job, due or not, left in place; undefined, and the lane forgotten, when it has none. */
  head(lane: string): JobRow | undefined {
    const ahead = this.#lanes.get(lane);
    if (!ahead) return undefined;
    if (ahead.next === ahead.jobs.length) {
      ahead.jobs = listLaneJobs(this.#db, lane, this.#taken.get(lane));
      ahead.next = 0;
      if (ahead.jobs.length === 0) {
        this.#lanes.delete(lane);
        return undefined;
      }
    }
    return ahead.jobs[ahead.next];
  }

  /** Takes the lane's head (it is about to run). */
  take(lane: string): void {
    const ahead = this.#lanes.get(lane);
    const job = ahead?.jobs[ahead.next];
    if (!ahead || !job) return;
    ahead.next++;
    this.#taken.set(lane, job);
  }

  /** The earliest of `dueAt` and the due times of the heads of the lanes `isIdle` accepts (a busy lane goes on when its job settles). */
  nextDueAt(isIdle: (lane: string) => boolean, dueAt: number | undefined): number | undefined {
    let next = dueAt;
    for (const lane of this.#lanes.keys()) {
      const due = isIdle(lane) ? this.head(lane)?.due_at : undefined;
      if (due !== undefined && (next === undefined || due < next)) next = due;
    }
    return next;
  }

  /** Forgets what was read and reads the lanes with pending jobs again (start, after an advance or a reset: none in flight or unwritten). */
  reload(): void {
    this.#lanes.clear();
    this.#taken.clear();
    for (const lane of listPendingLanes(this.#db)) this.add(lane);
  }
}
