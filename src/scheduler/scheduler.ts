import type { BoundJobHandler, JobRun } from "../domain/core/index.js";
import type { Db } from "../store/database.js";
import { deleteJob, listDueJobs, markJobFailed, markJobRunning, nextDueAt, requeueRunningJobs, type JobRow } from "../store/jobs.js";
import type { SchedulerClock } from "./clock.js";

/** Options of a scheduler. */
export interface SchedulerOptions {
  db: Db;
  clock: SchedulerClock;
  /** The handler of every job kind (the domain modules', bound to their context). */
  handlers: Readonly<Record<string, BoundJobHandler>>;
  /** Told about every job that threw (it is recorded as failed and the loop goes on). */
  onJobError?: (job: JobRow, error: unknown) => void;
  /** Async jobs (HTTP attempts) running at once in real mode. */
  maxInFlight?: number;
}

const BATCH = 200;
const MAX_SLEEP_MS = 1_000;

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof (value as Promise<unknown> | undefined)?.then === "function";

/**
 * The tick loop over jobs persisted in SQLite (SANDBOX.md section 4). Due jobs run in due order;
 * a synchronous job runs in one transaction with its own removal, so a crash never half-runs it.
 * In manual mode time moves only through `advance`, which runs each job at its own due time.
 */
export class Scheduler {
  readonly #db: Db;
  readonly #clock: SchedulerClock;
  readonly #handlers: Readonly<Record<string, BoundJobHandler>>;
  readonly #onJobError: (job: JobRow, error: unknown) => void;
  readonly #maxInFlight: number;
  readonly #inFlight = new Map<number, Promise<void>>();
  readonly #busyLanes = new Set<string>();
  #abort = new AbortController();
  #running = false;
  #paused = 0;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  /** Virtual time the loop's sleep ends (−∞ while it is awake). */
  #sleepingUntil = Number.NEGATIVE_INFINITY;
  #exclusive: Promise<unknown> = Promise.resolve();

  constructor(options: SchedulerOptions) {
    this.#db = options.db;
    this.#clock = options.clock;
    this.#handlers = options.handlers;
    this.#onJobError = options.onJobError ?? (() => {});
    this.#maxInFlight = options.maxInFlight ?? 32;
  }

  /** Starts the loop; jobs left running by a process that died are pending again. */
  start(): void {
    if (this.#running) return;
    requeueRunningJobs(this.#db);
    this.#running = true;
    this.#loop = this.#run();
  }

  /**
   * Tells the loop that a job was scheduled (due at `dueAt`) or finished. A job due after the
   * loop's current sleep ends needs no wake-up: under load that saves two queries per request.
   */
  wake(dueAt?: number): void {
    if (dueAt !== undefined && dueAt >= this.#sleepingUntil) return;
    this.#wake?.();
  }

  /**
   * Manual clock: moves time forward by `ms`, running every job that falls due at its own due
   * time, in order, including jobs those jobs schedule, up to and including the target.
   * Returns once that work, HTTP attempts included, is done.
   */
  advance(ms: number): Promise<number> {
    return this.exclusively(async () => {
      const target = this.#clock.now() + ms;
      for (;;) {
        const [job] = listDueJobs(this.#db, target, 1);
        if (!job) break;
        this.#clock.set(job.due_at);
        await this.#execute(job);
      }
      this.#clock.set(target);
      this.#clock.save();
      return this.#clock.now();
    });
  }

  /**
   * Runs `fn` with the loop paused and no job in flight (advance, reset). Calls queue up.
   * `abortInFlight` aborts running jobs first instead of waiting for them.
   */
  exclusively<T>(fn: () => Promise<T> | T, options: { abortInFlight?: boolean } = {}): Promise<T> {
    const next = this.#exclusive.then(async () => {
      this.#paused++;
      try {
        if (options.abortInFlight) this.#abortInFlight();
        await this.#settleInFlight();
        return await fn();
      } finally {
        this.#paused--;
        this.wake();
      }
    });
    this.#exclusive = next.catch(() => {});
    return next;
  }

  /** Stops the loop after the running tick; aborts jobs still in flight after `graceMs`. */
  async stop(graceMs = 2_000): Promise<void> {
    this.#running = false;
    this.wake();
    await this.#loop;
    const timer = setTimeout(() => this.#abortInFlight(), graceMs);
    await this.#settleInFlight();
    clearTimeout(timer);
  }

  // --- The loop ---

  async #run(): Promise<void> {
    while (this.#running) {
      const started = this.#paused ? 0 : this.#tick();
      if (!this.#running) break;
      if (started > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      await this.#sleep();
    }
  }

  /** Starts the jobs that are due and free to run; returns how many started. */
  #tick(): number {
    let started = 0;
    for (const job of listDueJobs(this.#db, this.#clock.now(), BATCH)) {
      if (this.#paused || !this.#running) break;
      if (this.#inFlight.size >= this.#maxInFlight) break;
      if (job.lane && this.#busyLanes.has(job.lane)) continue;
      started++;
      void this.#execute(job);
    }
    return started;
  }

  #sleep(): Promise<void> {
    const next = this.#paused ? undefined : nextDueAt(this.#db);
    let delay = MAX_SLEEP_MS;
    if (next !== undefined && this.#clock.mode === "real") delay = Math.min(delay, Math.max(0, next - this.#clock.now()));
    if (this.#clock.mode === "manual") delay = MAX_SLEEP_MS;
    // A manual clock does not move while sleeping: anything due at or before now needs a wake-up.
    this.#sleepingUntil = this.#clock.mode === "manual" ? this.#clock.now() + 1 : this.#clock.now() + delay;
    return new Promise((resolve) => {
      const timer = setTimeout(done, delay);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.#sleepingUntil = Number.NEGATIVE_INFINITY;
        self.#wake = undefined;
        resolve();
      }
      this.#wake = done;
    });
  }

  // --- Running one job ---

  /** Runs a job: sync handlers inside one transaction with the job's removal; async ones tracked. */
  #execute(job: JobRow): Promise<void> {
    const signal = this.#abort.signal;
    let result: void | Promise<void> = undefined;
    try {
      // better-sqlite3 refuses a transaction function that returns a promise: keep it outside.
      this.#db.transaction(() => {
        result = this.#dispatch(job, signal);
        if (isPromise(result)) markJobRunning(this.#db, job.id);
        else deleteJob(this.#db, job.id);
      });
    } catch (error) {
      if (isPromise(result)) result.catch(() => {});
      this.#fail(job, error);
      return Promise.resolve();
    }
    if (!isPromise(result)) return Promise.resolve();

    if (job.lane) this.#busyLanes.add(job.lane);
    const tracked = result
      .then(
        () => {
          // Aborted mid-run (stop or reset): the job stays `running` and is requeued at start.
          if (!signal.aborted) deleteJob(this.#db, job.id);
        },
        (error) => {
          if (!signal.aborted) this.#fail(job, error);
        },
      )
      .finally(() => {
        this.#inFlight.delete(job.id);
        if (job.lane) this.#busyLanes.delete(job.lane);
        this.wake();
      });
    this.#inFlight.set(job.id, tracked);
    return tracked;
  }

  /** Calls the job kind's handler with its payload; an unknown kind fails the job. */
  #dispatch(job: JobRow, signal: AbortSignal): void | Promise<void> {
    const handler = this.#handlers[job.kind];
    if (!handler) throw new Error(`No handler for job kind "${job.kind}"`);
    const run: JobRun = { id: job.id, dueAt: job.due_at, signal };
    return handler(JSON.parse(job.payload), run);
  }

  #fail(job: JobRow, error: unknown): void {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    try {
      markJobFailed(this.#db, job.id, message);
    } finally {
      this.#onJobError(job, error);
    }
  }

  #abortInFlight(): void {
    this.#abort.abort();
    this.#abort = new AbortController();
  }

  async #settleInFlight(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight.values()]);
  }
}
