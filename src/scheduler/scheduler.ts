import type { BoundJobHandler, JobCompletion, JobRun, SettleOutcome } from "../domain/core/index.js";
import type { Db } from "../store/engine/index.js";
import {
  deleteJob,
  listDueFreeJobs,
  listDueLanedJobs,
  markJobFailed,
  markJobRunning,
  nextDueAt,
  nextFreeDueAt,
  requeueRunningJobs,
  type JobRow,
} from "../store/core/index.js";
import type { SchedulerClock } from "./clock.js";
import { CompletionBatch } from "./completions.js";
import { DueJobQueue } from "./due-jobs.js";
import { InFlightJobs } from "./in-flight.js";
import { LaneQueues } from "./lane-queues.js";
import { Settlements } from "./settling.js";
import { LoopSleep } from "./sleep.js";

/** Options of a scheduler. */
export interface SchedulerOptions {
  db: Db;
  clock: SchedulerClock;
  /** The handler of every job kind (the domain modules', bound to their context). */
  handlers: Readonly<Record<string, BoundJobHandler>>;
  /** Told about every job that threw (it is recorded as failed and the loop goes on). */
  onJobError?: (job: JobRow, error: unknown) => void;
  /** Async jobs without a lane (webhook retries) running at once; each lane runs one more. */
  maxInFlight?: number;
}

const MAX_SLEEP_MS = 1_000;
/** The longest the tick loop runs jobs before it lets the event loop serve I/O (real ms). */
const SLICE_MS = 2;

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof (value as Promise<unknown> | undefined)?.then === "function";

/**
 * The tick loop over jobs persisted in SQLite. Due jobs run in due order;
 * a synchronous job runs in one transaction with its own removal, so a crash never half-runs it.
 * Jobs of one lane (first attempts to one webhook endpoint) run one at a time, in order; async
 * jobs without a lane (retries) run side by side. In manual mode time moves only through
 * `advance`, which runs each job at its own due time.
 */
export class Scheduler {
  readonly #db: Db;
  readonly #clock: SchedulerClock;
  readonly #handlers: Readonly<Record<string, BoundJobHandler>>;
  readonly #onJobError: (job: JobRow, error: unknown) => void;
  readonly #maxInFlight: number;
  readonly #inFlight: InFlightJobs;
  /** Lanes that may have pending jobs (told by `wake`, read back at start and after a reset), their next jobs read ahead. */
  readonly #lanes: LaneQueues;
  readonly #completions: CompletionBatch;
  /** Due free jobs read ahead (due-jobs.ts). */
  readonly #free: DueJobQueue;
  /** Due laned jobs read ahead for an advance's one-at-a-time attempts (due-jobs.ts). */
  readonly #serial: DueJobQueue;
  /** Settles under way (settling.ts). */
  readonly #settlements: Settlements;
  #running = false;
  /** Set by `stop`: an advance under way ends at the instant it reached, its aborted jobs left due. */
  #stopping = false;
  #paused = 0;
  #loop: Promise<void> | undefined;
  readonly #sleep = new LoopSleep();
  #exclusive: Promise<unknown> = Promise.resolve();

  constructor(options: SchedulerOptions) {
    this.#db = options.db;
    this.#clock = options.clock;
    this.#handlers = options.handlers;
    this.#onJobError = options.onJobError ?? (() => {});
    this.#maxInFlight = options.maxInFlight ?? 32;
    this.#free = new DueJobQueue(this.#db, listDueFreeJobs);
    this.#serial = new DueJobQueue(this.#db, listDueLanedJobs);
    this.#lanes = new LaneQueues(this.#db);
    this.#completions = new CompletionBatch(
      this.#db,
      (job, error) => this.#fail(job, error),
      (job, write) => this.#settlements.around(job, write),
    );
    this.#inFlight = new InFlightJobs({
      finished: (job, write) => this.#completions.add(job, write),
      failed: (job, error) => this.#fail(job, error),
      settled: ({ lane }) => {
        // Outside an advance a lane goes on at once; a free job's end frees room for another.
        if (lane && this.#running && !this.#paused) this.#startLane(lane, this.#clock.now());
        if (!lane) this.#wakeLoop();
        this.#settlements.poke();
      },
    });
    this.#settlements = new Settlements({
      db: this.#db,
      clock: this.#clock,
      inFlight: this.#inFlight,
      flushCompletions: () => this.#completions.flush(),
    });
    // A job removed from outside the loop (an endpoint deleted, a reset) finishes a settle's wait too.
    this.#db.onCommit(() => this.#settlements.poke());
  }

  /** Starts the loop; jobs left running by a process that died are pending again. */
  start(): void {
    if (this.#running) return;
    requeueRunningJobs(this.#db);
    this.#lanes.reload();
    this.#running = true;
    this.#loop = this.#run();
  }

  /**
   * Tells the loop that a job was scheduled (due at `dueAt`, in `lane`) or finished. A job due
   * after the loop's current sleep ends needs no wake-up (under load that saves two queries per
   * request), nor does one whose lane is busy: it runs when the lane's current job finishes.
   */
  wake(dueAt?: number, lane?: string | null): void {
    if (lane) this.#serial.changed();
    else this.#free.changed();
    this.#wakeLoop(dueAt, lane);
  }

  /** Wakes the loop without saying a free job was scheduled (a finished job freed room). */
  #wakeLoop(dueAt?: number, lane?: string | null): void {
    if (lane) {
      this.#lanes.add(lane);
      if (this.#inFlight.isBusy(lane)) return;
    }
    this.#sleep.wake(dueAt);
  }

  /**
   * Manual clock: moves time forward by `ms`, running every job that falls due at its own due time,
   * in order, including jobs those jobs schedule, up to and including the target. Each instant is
   * finished (HTTP attempts included) before the clock moves on; returns once that work is done.
   */
  advance(ms: number): Promise<number> {
    return this.exclusively(async () => {
      const target = this.#clock.now() + ms;
      // Its signals (events to live listeners, wake-ups) need no commit of their own (store/engine/db.ts).
      this.#db.deferSignals(true);
      try {
        for (;;) {
          await this.#drain();
          // Stopped meanwhile: what it aborted stays due for the next start, and time stays here.
          if (this.#stopping) return this.#clock.now();
          const next = nextDueAt(this.#db);
          if (next === undefined || next > target) break;
          this.#clock.set(next);
        }
      } finally {
        this.#db.deferSignals(false);
      }
      this.#clock.set(target);
      this.#clock.save();
      return this.#clock.now();
    });
  }

  /**
   * Resolves once every job due at or before the clock's now has run (async ones finished and
   * written, jobs they scheduled due at once included), or when `timeoutMs` of real time has
   * passed, with the jobs still unfinished. Never moves the clock: the loop, or an advance under
   * way, runs the jobs (settling.ts).
   */
  settle(timeoutMs: number): Promise<SettleOutcome> {
    // The loop reads the due jobs again, in case one's wake-up has not come yet.
    this.wake();
    return this.#settlements.start(timeoutMs);
  }

  /**
   * Runs `fn` with the loop paused and no job in flight (advance, reset). Calls queue up.
   * `abortInFlight` aborts running jobs first instead of waiting for them.
   */
  exclusively<T>(fn: () => Promise<T> | T, options: { abortInFlight?: boolean } = {}): Promise<T> {
    const next = this.#exclusive.then(async () => {
      this.#paused++;
      try {
        if (options.abortInFlight) this.#inFlight.abortAll();
        await this.#inFlight.settleAll();
        this.#completions.flush();
        return await fn();
      } finally {
        // A reset may have emptied or refilled the jobs.
        this.#free.forget();
        this.#serial.forget();
        this.#lanes.reload();
        this.#paused--;
        this.wake();
      }
    });
    this.#exclusive = next.catch(() => {});
    return next;
  }

  /**
   * Runs `fn`, which replaces the whole state (a restore), as a reset runs: the loop paused,
   * attempts in flight abandoned (aborted, nothing of them written). `fn` answers the virtual
   * time of the state it brought: a manual clock goes there, backwards too; a real clock keeps
   * the wall's, and what fell due since runs. Jobs the state left `running` are pending again,
   * and settles under way start over on it.
   */
  replaceState(fn: () => Promise<number>): Promise<void> {
    return this.exclusively(
      async () => {
        const at = await fn();
        this.#clock.restore(at);
        this.#clock.save();
        requeueRunningJobs(this.#db);
        this.#settlements.restartAll();
      },
      { abortInFlight: true },
    );
  }

  /** Stops the loop after the running tick; aborts jobs still in flight after `graceMs`. */
  async stop(graceMs = 2_000): Promise<void> {
    this.#running = false;
    this.#stopping = true;
    this.#settlements.stopAll();
    this.wake();
    await this.#loop;
    const timer = setTimeout(() => this.#inFlight.abortAll(), graceMs);
    await this.#inFlight.settleAll();
    // An advance under way ends once its jobs settled (or were aborted): wait for it, so that
    // nothing runs on after the database is closed.
    await this.#exclusive;
    clearTimeout(timer);
    this.#completions.flush();
  }

  // --- Manual clock: one instant at a time ---

  /**
   * Runs everything due at the clock's now, jobs those jobs schedule for now included, until
   * nothing is due or in flight, then writes the finished jobs. First attempts go one at a time
   * in all lanes, in due order, so that an advance delivers in one reproducible order.
   */
  async #drain(): Promise<void> {
    for (;;) {
      if (this.#stopping) {
        // No new job: the ones in flight finish (or are aborted) and stay as they end.
        await this.#inFlight.settleAll();
        return;
      }
      const now = this.#clock.now();
      if (this.#startDue(now, true) > 0) continue;
      if (this.#inFlight.size > 0) {
        await this.#inFlight.nextSettled();
        continue;
      }
      this.#completions.flush();
      const next = nextDueAt(this.#db);
      if (next === undefined || next > now) return;
      // Due now but not started: scheduled in this instant, its wake-up not come yet. Read again.
      this.#free.changed();
      this.#serial.changed();
    }
  }

  // --- The loop ---

  async #run(): Promise<void> {
    while (this.#running) {
      // A slice at a time, so that the attempts in flight (and requests) are served in between.
      const started = this.#paused ? 0 : this.#startDue(this.#clock.now(), false, performance.now() + SLICE_MS);
      if (!this.#running) break;
      if (started > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      await this.#sleepUntilDue();
    }
  }

  /**
   * Starts what is due at `now` and free to run: free jobs in due order (sync ones run here, async ones
   * up to maxInFlight), then every idle lane's head, or with `serialLanes` one laned job when none runs.
   */
  #startDue(now: number, serialLanes: boolean, sliceEnd = Number.POSITIVE_INFINITY): number {
    let started = 0;
    let read = false;
    while (this.#inFlight.free < this.#maxInFlight && (started === 0 || performance.now() < sliceEnd)) {
      let job = this.#free.shift();
      if (!job) {
        // Read at most once per call; jobs scheduled meanwhile sort after the ones read.
        if (read || !this.#free.refill(now)) break;
        read = true;
        job = this.#free.shift() as JobRow;
      }
      this.#execute(job);
      started++;
    }
    if (serialLanes) {
      const job = this.#inFlight.busyLanes === 0 ? this.#serial.next(now) : undefined;
      if (job) this.#execute(job);
      return started + (job ? 1 : 0);
    }
    for (const lane of this.#lanes.lanes()) {
      if (!this.#inFlight.isBusy(lane)) started += this.#startLane(lane, now);
    }
    return started;
  }

  /** Starts the next job of an idle lane when it is due; a lane with nothing pending is forgotten. */
  #startLane(lane: string, now: number): number {
    const job = this.#lanes.head(lane);
    if (!job || job.due_at > now) return 0;
    this.#lanes.take(lane);
    this.#execute(job);
    return 1;
  }

  /** Sleeps until the next job falls due (real clock) or a wake-up; at most MAX_SLEEP_MS. */
  #sleepUntilDue(): Promise<void> {
    const now = this.#clock.now();
    // A manual clock does not move while sleeping: anything due at or before now needs a wake-up.
    if (this.#clock.mode === "manual") return this.#sleep.sleep(MAX_SLEEP_MS, now + 1);
    // Laned jobs in flight are pending in the database, and a busy lane goes on when its job settles.
    const next = this.#paused
      ? undefined
      : this.#lanes.nextDueAt((lane) => !this.#inFlight.isBusy(lane), nextFreeDueAt(this.#db));
    const delay = next === undefined ? MAX_SLEEP_MS : Math.min(MAX_SLEEP_MS, Math.max(0, next - now));
    return this.#sleep.sleep(delay, now + delay);
  }

  // --- Running one job ---

  /**
   * Runs a job: sync handlers inside one transaction with the job's removal; async ones tracked.
   * A retry (no lane) is marked running so that the reads of free jobs skip it; a first attempt is
   * not: laned reads start after the last job they handed out (due-jobs.ts, lane-queues.ts).
   */
  #execute(job: JobRow): void {
    const signal = this.#inFlight.signal;
    let result = undefined as void | Promise<void | JobCompletion>;
    try {
      // better-sqlite3 refuses a transaction function that returns a promise: keep it outside.
      this.#db.transaction(() => {
        result = this.#settlements.around(job, () => this.#dispatch(job, signal));
        if (!isPromise(result)) deleteJob(this.#db, job.id);
        else if (!job.lane) markJobRunning(this.#db, job.id);
      });
    } catch (error) {
      if (isPromise(result)) result.catch(() => {});
      this.#fail(job, error);
      return;
    }
    if (isPromise(result)) this.#inFlight.track(job, result, signal);
    else {
      // A synchronous job (a transition) may have scheduled a first attempt due now; its wake-up comes after the commit.
      this.#serial.changed();
      this.#settlements.poke();
    }
  }

  /** Calls the job kind's handler with its payload; an unknown kind fails the job. */
  #dispatch(job: JobRow, signal: AbortSignal): void | Promise<void | JobCompletion> {
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
      this.#settlements.poke();
      this.#onJobError(job, error);
    }
  }
}
