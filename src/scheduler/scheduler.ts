import type { BoundJobHandler, SettleOutcome } from "../domain/core/index.js";
import type { Db } from "../store/engine/index.js";
import {
  listDueFreeJobs,
  listDueLanedJobs,
  nextDueAt,
  nextFreeDueAt,
  requeueRunningJobs,
  type JobRow,
} from "../store/core/index.js";
import type { SchedulerClock } from "./clock.js";
import { CompletionBatch } from "./completions.js";
import { DueJobQueue } from "./due-jobs.js";
import { InFlightJobs } from "./in-flight.js";
import { JobRunner } from "./job-runner.js";
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
  /** Starts due jobs and runs each (job-runner.ts). */
  readonly #runner: JobRunner;
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
    this.#free = new DueJobQueue(this.#db, listDueFreeJobs);
    this.#serial = new DueJobQueue(this.#db, listDueLanedJobs);
    this.#lanes = new LaneQueues(this.#db);
    this.#completions = new CompletionBatch(
      this.#db,
      (job, error) => this.#runner.fail(job, error),
      (job, write) => this.#settlements.around(job, write),
    );
    this.#inFlight = new InFlightJobs({
      finished: (job, write) => this.#completions.add(job, write),
      failed: (job, error) => this.#runner.fail(job, error),
      settled: ({ lane }) => {
        // Outside an advance a lane goes on at once; a free job's end frees room for another.
        if (lane && this.#running && !this.#paused) this.#runner.startLane(lane, this.#clock.now());
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
    this.#runner = new JobRunner({
      db: this.#db,
      handlers: options.handlers,
      onJobError: options.onJobError ?? (() => {}),
      maxInFlight: options.maxInFlight ?? 32,
      inFlight: this.#inFlight,
      free: this.#free,
      serial: this.#serial,
      lanes: this.#lanes,
      settlements: this.#settlements,
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
      if (this.#runner.startDue(now, true) > 0) continue;
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
      const started = this.#paused ? 0 : this.#runner.startDue(this.#clock.now(), false, performance.now() + SLICE_MS);
      if (!this.#running) break;
      if (started > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      await this.#sleepUntilDue();
    }
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
}
