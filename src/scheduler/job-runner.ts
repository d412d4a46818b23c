import type { BoundJobHandler, JobCompletion, JobRun } from "../domain/core/index.js";
import type { Db } from "../store/engine/index.js";
import { deleteJob, markJobFailed, markJobRunning, type JobRow } from "../store/core/index.js";
import type { DueJobQueue } from "./due-jobs.js";
import type { InFlightJobs } from "./in-flight.js";
import type { LaneQueues } from "./lane-queues.js";
import type { Settlements } from "./settling.js";

/** What starting and running jobs needs: the scheduler's queues, jobs in flight and settles. */
export interface JobRunnerParts {
  db: Db;
  /** The handler of every job kind (the domain modules', bound to their context). */
  handlers: Readonly<Record<string, BoundJobHandler>>;
  /** Told about every job that threw (it is recorded as failed and the loop goes on). */
  onJobError: (job: JobRow, error: unknown) => void;
  /** Async jobs without a lane running at once; each lane runs one more. */
  maxInFlight: number;
  inFlight: InFlightJobs;
  /** Due free jobs read ahead (due-jobs.ts). */
  free: DueJobQueue;
  /** Due laned jobs read ahead for an advance's one-at-a-time attempts (due-jobs.ts). */
  serial: DueJobQueue;
  lanes: LaneQueues;
  settlements: Settlements;
}

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof (value as Promise<unknown> | undefined)?.then === "function";

/** Starts the due jobs that are free to run, and runs each: which job goes next, and how one job runs. */
export class JobRunner {
  readonly #parts: JobRunnerParts;

  constructor(parts: JobRunnerParts) {
    this.#parts = parts;
  }

  /**
   * Starts what is due at `now` and free to run: free jobs in due order (sync ones run here, async ones
   * up to maxInFlight), then every idle lane's head, or with `serialLanes` one laned job when none runs.
   */
  startDue(now: number, serialLanes: boolean, sliceEnd = Number.POSITIVE_INFINITY): number {
    const { inFlight, free, serial, lanes, maxInFlight } = this.#parts;
    let started = 0;
    let read = false;
    while (inFlight.free < maxInFlight && (started === 0 || performance.now() < sliceEnd)) {
      let job = free.shift();
      if (!job) {
        // Read at most once per call; jobs scheduled meanwhile sort after the ones read.
        if (read || !free.refill(now)) break;
        read = true;
        job = free.shift() as JobRow;
      }
      this.#execute(job);
      started++;
    }
    if (serialLanes) {
      const job = inFlight.busyLanes === 0 ? serial.next(now) : undefined;
      if (job) this.#execute(job);
      return started + (job ? 1 : 0);
    }
    for (const lane of lanes.lanes()) {
      if (!inFlight.isBusy(lane)) started += this.startLane(lane, now);
    }
    return started;
  }

  /** Starts the next job of an idle lane when it is due; a lane with nothing pending is forgotten. */
  startLane(lane: string, now: number): number {
    const job = this.#parts.lanes.head(lane);
    if (!job || job.due_at > now) return 0;
    this.#parts.lanes.take(lane);
    this.#execute(job);
    return 1;
  }

  /**
   * Runs a job: sync handlers inside one transaction with the job's removal; async ones tracked.
   * A retry (no lane) is marked running so that the reads of free jobs skip it; a first attempt is
   * not: laned reads start after the last job they handed out (due-jobs.ts, lane-queues.ts).
   */
  #execute(job: JobRow): void {
    const { db, inFlight, settlements } = this.#parts;
    const signal = inFlight.signal;
    if (this.#parts.handlers[job.kind]?.isAsync) return this.#start(job, signal);
    let result = undefined as void | Promise<void | JobCompletion>;
    try {
      // better-sqlite3 refuses a transaction function that returns a promise: keep it outside.
      db.transaction(() => {
        result = settlements.around(job, () => this.#dispatch(job, signal));
        if (!isPromise(result)) deleteJob(db, job.id);
        else if (!job.lane) markJobRunning(db, job.id);
      });
    } catch (error) {
      if (isPromise(result)) result.catch(() => {});
      this.fail(job, error);
      return;
    }
    if (isPromise(result)) inFlight.track(job, result, signal);
    else {
      // A synchronous job (a transition) may have scheduled a first attempt due now; its wake-up comes after the commit.
      this.#parts.serial.changed();
      settlements.poke();
    }
  }

  /**
   * Starts an async job (a webhook attempt) with no savepoint around the call: an async handler
   * throws nothing to its caller and writes only in transactions of its own or its completion
   * (BoundJobHandler), so a savepoint could undo none of its writes, and a first attempt's start
   * is then its one read instead of three statements (bench/HISTORY.md). A retry is still marked
   * running, in the open batch.
   */
  #start(job: JobRow, signal: AbortSignal): void {
    const { db, inFlight, settlements } = this.#parts;
    let result: Promise<void | JobCompletion> | undefined;
    try {
      result = settlements.around(job, () => this.#dispatch(job, signal)) as Promise<void | JobCompletion>;
      if (!job.lane) db.transaction(() => markJobRunning(db, job.id));
    } catch (error) {
      result?.catch(() => {});
      this.fail(job, error);
      return;
    }
    inFlight.track(job, result, signal);
  }

  /** Calls the job kind's handler with its payload; an unknown kind fails the job. */
  #dispatch(job: JobRow, signal: AbortSignal): void | Promise<void | JobCompletion> {
    const handler = this.#parts.handlers[job.kind];
    if (!handler) throw new Error(`No handler for job kind "${job.kind}"`);
    const run: JobRun = { id: job.id, dueAt: job.due_at, signal };
    return handler(JSON.parse(job.payload), run);
  }

  /** Records the job as failed with its error's stack, and tells settles and the job-error listener. */
  fail(job: JobRow, error: unknown): void {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    try {
      markJobFailed(this.#parts.db, job.id, message);
    } finally {
      this.#parts.settlements.poke();
      this.#parts.onJobError(job, error);
    }
  }
}
