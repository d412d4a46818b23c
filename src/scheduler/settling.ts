import type { SettleOutcome, UnfinishedJob } from "../domain/core/index.js";
import type { Clock } from "../lib/clock.js";
import type { Db } from "../store/engine/index.js";
import {
  lastJobId,
  listJobsAfter,
  listUnfinishedJobs,
  listUnfinishedJobsDueBy,
  type JobRow,
} from "../store/core/index.js";
import type { InFlightJobs } from "./in-flight.js";

/** What settles watch: the database, the clock, the jobs in flight, and the finished jobs' writes. */
export interface SettleSources {
  db: Db;
  clock: Clock;
  inFlight: InFlightJobs;
  /** Writes the async jobs that finished and wait in the completion batch (completions.ts). */
  flushCompletions(): void;
}

/** One settle under way. */
class Settle {
  /** Jobs a waited-for job scheduled due at once: on a real clock they fall after `now`. */
  readonly caused = new Set<number>();
  /** Every job waited for, by id: true for a laned one (a first attempt). */
  readonly waitedFor = new Map<number, boolean>();
  timer: NodeJS.Timeout | undefined;

  constructor(
    public now: number,
    readonly resolve: (outcome: SettleOutcome) => void,
  ) {}

  /** True when this settle waits for the job. */
  awaits(job: Pick<JobRow, "id" | "due_at">): boolean {
    return job.due_at <= this.now || this.caused.has(job.id);
  }

  note(job: JobRow): void {
    this.waitedFor.set(job.id, job.lane !== null);
  }

  outcome(settled: boolean, unfinished: UnfinishedJob[] = [], stopped = false): SettleOutcome {
    let firstAttempts = 0;
    for (const laned of this.waitedFor.values()) if (laned) firstAttempts++;
    return { settled, stopped, now: this.now, jobsRun: this.waitedFor.size, firstAttempts, unfinished };
  }
}

/**
 * Settles (docs/control-api.md, "Settle"): each waits until every job due at or before the clock's time
 * when it was called has run, and every job those scheduled due at once too, whatever the clock.
 * It never moves the clock and never runs a job itself: the scheduler's loop (or an advance) runs
 * them, and a settle only watches. Four things finish late and are waited for: a job a job
 * scheduled (a transition's event fans out to first attempts), a first attempt queued behind
 * another of its lane, an async job in flight (its record written later in a batch), and the
 * commit of those writes (group commit).
 *
 * A job counts as finished once its row is gone or failed and it is no longer in flight: a sync
 * job's row goes in the transaction that ran it, an async job's with its completion write, and
 * a job removed from outside (an endpoint deleted, a reset) goes too.
 */
export class Settlements {
  readonly #sources: SettleSources;
  readonly #settles = new Set<Settle>();
  #checkQueued = false;

  constructor(sources: SettleSources) {
    this.#sources = sources;
  }

  /** True while a settle waits (the scheduler's hooks cost nothing otherwise). */
  get active(): boolean {
    return this.#settles.size > 0;
  }

  /** Waits until everything due now has run, or `timeoutMs` (real time) has passed. */
  start(timeoutMs: number): Promise<SettleOutcome> {
    return new Promise((resolve) => {
      const settle = new Settle(this.#sources.clock.now(), resolve);
      // Jobs that finished before the call are written first: they are not waited for.
      this.#sources.flushCompletions();
      this.#noteDue(settle);
      this.#settles.add(settle);
      settle.timer = setTimeout(() => this.#timeOut(settle), timeoutMs);
      this.#check();
    });
  }

  /**
   * The whole state was replaced (a restore): what each settle waited for is gone, and job ids
   * may name other jobs now. Each starts over on the new state, at the clock's time, within the
   * time it had left.
   */
  restartAll(): void {
    for (const settle of this.#settles) {
      settle.now = this.#sources.clock.now();
      settle.caused.clear();
      settle.waitedFor.clear();
      this.#noteDue(settle);
    }
    this.poke();
  }

  /** Notes the jobs due at the settle's time: in flight, and unfinished in the table. */
  #noteDue(settle: Settle): void {
    const { db, inFlight } = this.#sources;
    for (const job of inFlight.jobs()) if (settle.awaits(job)) settle.note(job);
    for (const job of listUnfinishedJobsDueBy(db, settle.now)) settle.note(job);
  }

  /**
   * Runs `work`, a job's own writes (a sync handler, or an async job's completion): the jobs it
   * schedules due at once are waited for by every settle that waits for `job`.
   */
  around<T>(job: JobRow, work: () => T): T {
    if (this.#settles.size === 0) return work();
    const waiting = [...this.#settles].filter((settle) => settle.awaits(job));
    if (waiting.length === 0) return work();
    for (const settle of waiting) settle.note(job);
    const { db, clock } = this.#sources;
    const before = lastJobId(db);
    const result = work();
    const scheduled = listJobsAfter(db, before).filter((next) => next.due_at <= clock.now());
    for (const settle of waiting) for (const next of scheduled) settle.caused.add(next.id);
    return result;
  }

  /** Something may have finished (a job ran or settled, a commit): each settle looks again soon. */
  poke(): void {
    if (this.#settles.size === 0 || this.#checkQueued) return;
    this.#checkQueued = true;
    setImmediate(() => {
      this.#checkQueued = false;
      this.#check();
    });
  }

  /** The scheduler stops: every settle ends unsettled, without reading the database again. */
  stopAll(): void {
    for (const settle of this.#settles) {
      clearTimeout(settle.timer);
      settle.resolve(settle.outcome(false, [], true));
    }
    this.#settles.clear();
  }

  #check(): void {
    if (this.#settles.size === 0) return;
    this.#sources.flushCompletions();
    for (const settle of [...this.#settles]) {
      if (this.#unfinished(settle, 1).length === 0) void this.#finish(settle);
    }
  }

  /** Settled: answered once its writes are committed. */
  async #finish(settle: Settle): Promise<void> {
    this.#settles.delete(settle);
    clearTimeout(settle.timer);
    await this.#sources.db.committed().catch(() => {});
    settle.resolve(settle.outcome(true));
  }

  #timeOut(settle: Settle): void {
    if (!this.#settles.has(settle)) return;
    this.#sources.flushCompletions();
    const unfinished = this.#unfinished(settle, Number.MAX_SAFE_INTEGER);
    if (unfinished.length === 0) {
      void this.#finish(settle);
      return;
    }
    this.#settles.delete(settle);
    settle.resolve(settle.outcome(false, unfinished));
  }

  /** The jobs the settle still waits for (`limit` of those not in flight at most): in flight first, then in due order. */
  #unfinished(settle: Settle, limit: number): UnfinishedJob[] {
    const { db, inFlight } = this.#sources;
    const found = new Map<number, UnfinishedJob>();
    for (const job of inFlight.jobs()) if (settle.awaits(job)) found.set(job.id, { job, inFlight: true });
    if (found.size > 0 && limit === 1) return [...found.values()];
    const rows = [...listUnfinishedJobsDueBy(db, settle.now, limit), ...listUnfinishedJobs(db, [...settle.caused])];
    for (const job of rows.sort((a, b) => a.due_at - b.due_at || a.id - b.id)) {
      if (!found.has(job.id)) found.set(job.id, { job, inFlight: false });
    }
    return [...found.values()];
  }
}
