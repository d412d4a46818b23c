import { afterEach, beforeEach } from "vitest";
import type { BoundJobHandler } from "../../src/domain/core/index.js";
import { openClock, type SchedulerClock } from "../../src/scheduler/clock.js";
import { Scheduler } from "../../src/scheduler/scheduler.js";
import { openDatabase, type Db } from "../../src/store/engine/index.js";
import { insertJob, type JobRow } from "../../src/store/core/index.js";

/** The manual clock's start in the scheduler's tests. */
export const T0 = 1_700_000_000_000;

/** A scheduler on a fresh in-memory database with a manual clock at T0, recording every job it runs. */
export interface SchedulerHarness {
  db: Db;
  clock: SchedulerClock;
  /** Every job run, in order: its kind, the clock's time then, and its payload. */
  runs: { kind: string; at: number; payload: unknown }[];
  /** What each job kind does once recorded; a kind without one does nothing. */
  handlers: Record<string, (job: JobRow) => void | Promise<void>>;
  scheduler: Scheduler;
  /** Persists a job, as a domain module would. */
  schedule(kind: string, dueAt: number, payload?: unknown, lane?: string): number;
}

async function schedulerHarness(): Promise<SchedulerHarness> {
  const db = await openDatabase(":memory:");
  const clock = openClock(db, "manual", T0);
  const runs: SchedulerHarness["runs"] = [];
  const handlers: SchedulerHarness["handlers"] = {};
  const scheduler = new Scheduler({
    db,
    clock,
    handlers: recordingHandlers((kind, payload, run) => {
      runs.push({ kind, at: clock.now(), payload });
      return handlers[kind]?.({ kind, id: run.id, due_at: run.dueAt, payload: JSON.stringify(payload) } as JobRow);
    }),
  });
  const schedule = (kind: string, dueAt: number, payload: unknown = null, lane?: string) =>
    insertJob(db, { kind, payload, due_at: dueAt, lane, created_at: clock.now() });
  return { db, clock, runs, handlers, scheduler, schedule };
}

/** Counts the reads (through all and first) whose SQL contains `fragment`, from now on. */
export function countReads(db: Db, fragment: string): string[] {
  const reads: string[] = [];
  const readOf =
    <R>(read: (query: Parameters<Db["all"]>[0]) => R) =>
    (query: Parameters<Db["all"]>[0]) => {
      const { sql } = query.compile();
      if (sql.includes(fragment)) reads.push(sql);
      return read(query);
    };
  db.all = readOf(db.all.bind(db)) as Db["all"];
  db.first = readOf(db.first.bind(db)) as Db["first"];
  return reads;
}

/** A handler for every job kind, each calling `record` with the kind it was asked for. */
export function recordingHandlers(
  record: (kind: string, ...args: Parameters<BoundJobHandler>) => void | Promise<void>,
): Record<string, BoundJobHandler> {
  return new Proxy(
    {},
    {
      get: (_target, kind) =>
        typeof kind === "string" ? (...args: Parameters<BoundJobHandler>) => record(kind, ...args) : undefined,
    },
  );
}

/** Yields to the event loop until `condition` holds (no wall-clock sleeps). */
export async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100_000 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  if (!condition()) throw new Error("condition never held");
}

/**
 * A fresh harness before each test of the calling file (or describe), its scheduler stopped and its
 * database closed after it. The object answered is the current test's harness.
 */
export function useSchedulerHarness(): SchedulerHarness {
  const h = {} as SchedulerHarness;
  beforeEach(async () => {
    Object.assign(h, await schedulerHarness());
  });
  afterEach(async () => {
    await h.scheduler.stop();
    h.db.close();
  });
  return h;
}
