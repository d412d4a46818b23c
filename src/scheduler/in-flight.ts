import { setMaxListeners } from "node:events";
import type { JobCompletion } from "../domain/core/index.js";
import type { JobRow } from "../store/core/index.js";

/** The controller whose signal every job in flight listens to (one listener each, many at once). */
function newAbortController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

/** What becomes of an async job once it settles. */
export interface InFlightOutcomes {
  /** It finished: its completion write is to be recorded (not called when it was aborted). */
  finished(job: JobRow, write: JobCompletion | undefined): void;
  /** It threw (not called when it was aborted). */
  failed(job: JobRow, error: unknown): void;
  /** It is no longer in flight, whatever became of it: its lane is free again. */
  settled(job: JobRow): void;
}

/**
 * The async jobs in flight: which lanes are busy, how many free jobs run, the signal that aborts
 * them all (a stop or a reset), and waiting for them to settle.
 */
export class InFlightJobs {
  readonly #jobs = new Map<number, Promise<void>>();
  readonly #rows = new Map<number, JobRow>();
  readonly #busyLanes = new Set<string>();
  readonly #outcomes: InFlightOutcomes;
  #free = 0;
  #waiters: (() => void)[] = [];
  #abort = newAbortController();

  constructor(outcomes: InFlightOutcomes) {
    this.#outcomes = outcomes;
  }

  /** Jobs in flight. */
  get size(): number {
    return this.#jobs.size;
  }

  /** Jobs without a lane in flight (the ones maxInFlight bounds). */
  get free(): number {
    return this.#free;
  }

  /** Lanes whose job is in flight. */
  get busyLanes(): number {
    return this.#busyLanes.size;
  }

  /** The jobs in flight, in the order they started. */
  jobs(): IterableIterator<JobRow> {
    return this.#rows.values();
  }

  isBusy(lane: string): boolean {
    return this.#busyLanes.has(lane);
  }

  /** The signal of the jobs started now: aborted by `abortAll`. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Follows an async job until it settles; `signal` is the one it was started with. */
  track(job: JobRow, result: Promise<void | JobCompletion>, signal: AbortSignal): void {
    const { lane } = job;
    if (lane) this.#busyLanes.add(lane);
    else this.#free++;
    const tracked = result
      .then(
        (write) => {
          // Aborted mid-run (stop or reset): the job stays `running` and is requeued at start.
          if (!signal.aborted) this.#outcomes.finished(job, write ?? undefined);
        },
        (error) => {
          if (!signal.aborted) this.#outcomes.failed(job, error);
        },
      )
      .finally(() => {
        this.#jobs.delete(job.id);
        this.#rows.delete(job.id);
        if (lane) this.#busyLanes.delete(lane);
        else this.#free--;
        const waiters = this.#waiters;
        this.#waiters = [];
        for (const waiter of waiters) waiter();
        this.#outcomes.settled(job);
      });
    this.#jobs.set(job.id, tracked);
    this.#rows.set(job.id, job);
  }

  /** Resolves when the next job in flight settles. */
  nextSettled(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Resolves when nothing is in flight, jobs started meanwhile included. */
  async settleAll(): Promise<void> {
    while (this.#jobs.size > 0) await Promise.allSettled([...this.#jobs.values()]);
  }

  /** Aborts every job in flight; jobs started afterwards get a fresh signal. */
  abortAll(): void {
    this.#abort.abort();
    this.#abort = newAbortController();
  }
}
