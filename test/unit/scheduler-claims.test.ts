import { describe, expect, it } from "vitest";
import { manualClock, realClock } from "../../src/scheduler/clock.js";
import { Scheduler } from "../../src/scheduler/scheduler.js";
import { listJobs } from "../../src/store/core/index.js";
import { countReads, recordingHandlers, useSchedulerHarness, T0, until } from "../helpers/scheduler.js";

/**
 * A retry in flight is marked running so that the reads of due free jobs skip it; a first
 * attempt is not, and the reads of laned jobs start after the last one they handed out
 * (scheduler.ts, due-jobs.ts, lane-queues.ts). Either way a job cut off by a crash runs again.
 */
describe("the scheduler's claims", () => {
  const h = useSchedulerHarness();

  it("marks a retry running while it is in flight, and writes nothing to claim a first attempt", async () => {
    const claims: string[] = [];
    const run = h.db.run.bind(h.db);
    h.db.run = (query) => {
      const { sql } = query.compile();
      if (sql.startsWith('update "jobs" set "status"')) claims.push(sql);
      return run(query);
    };
    h.handlers.attempt = () => new Promise<void>((resolve) => setImmediate(resolve));
    h.handlers.retry = () => new Promise<void>((resolve) => setImmediate(resolve));
    for (let i = 0; i < 5; i++) h.schedule("attempt", T0 + 1_000, i, "webhook:1");
    for (let i = 0; i < 3; i++) h.schedule("retry", T0 + 1_000, i);
    await h.scheduler.advance(1_000);
    expect(h.runs.map((r) => r.kind).sort()).toEqual([...Array(5).fill("attempt"), ...Array(3).fill("retry")]);
    expect(claims).toHaveLength(3);
    expect(listJobs(h.db)).toEqual([]);
  });

  it("in an advance, does not run a first attempt again while its record waits to be written", async () => {
    // More than one read's worth (200) at one instant: the second read comes while the records
    // of the last attempts are still in their batch.
    h.handlers.attempt = () => new Promise<void>((resolve) => setImmediate(resolve));
    for (let i = 0; i < 250; i++) h.schedule("attempt", T0 + 1_000, i, `webhook:${i % 3}`);
    await h.scheduler.advance(1_000);
    expect(h.runs.map((r) => r.payload)).toEqual([...Array(250).keys()]);
    expect(listJobs(h.db)).toEqual([]);
  });

  it("does not run a first attempt again while its record waits to be written", async () => {
    // Each attempt's record is written in a batch after it settled; a read of the lane in the
    // meantime (the lane's read-ahead used up) must not hand it out again.
    h.handlers.attempt = () => new Promise<void>((resolve) => setImmediate(resolve));
    for (let i = 0; i < 150; i++) h.schedule("attempt", T0, i, "webhook:1");
    h.scheduler.start();
    h.scheduler.wake(T0, "webhook:1");
    await until(() => listJobs(h.db).length === 0);
    expect(h.runs.map((r) => r.payload)).toEqual([...Array(150).keys()]);
  });

  it("runs again, at the next start, a first attempt the process died in the middle of", async () => {
    let release: () => void = () => {};
    h.handlers.attempt = () => new Promise<void>((resolve) => (release = resolve));
    h.schedule("attempt", T0, "cut off", "webhook:1");
    h.scheduler.start();
    h.scheduler.wake(T0, "webhook:1");
    await until(() => h.runs.length === 1);
    // A second process on the same database (the first one died with the attempt in flight).
    const again: unknown[] = [];
    const restarted = new Scheduler({
      db: h.db,
      clock: manualClock(h.db, T0),
      handlers: recordingHandlers((_kind, payload) => void again.push(payload)),
    });
    restarted.start();
    restarted.wake(T0, "webhook:1");
    await until(() => again.length === 1);
    expect(again).toEqual(["cut off"]);
    release();
    await restarted.stop();
  });

  it("sleeps while a lane's job is in flight, rather than waking for the jobs waiting behind it (real clock)", async () => {
    await h.scheduler.stop();
    const now = Date.now();
    let release: () => void = () => {};
    h.scheduler = new Scheduler({
      db: h.db,
      clock: realClock(h.db),
      handlers: recordingHandlers((kind) => {
        h.runs.push({ kind, at: 0, payload: null });
        return new Promise<void>((resolve) => (release = resolve));
      }),
    });
    for (let i = 0; i < 3; i++) h.schedule("attempt", now, i, "webhook:1");
    h.scheduler.start();
    h.scheduler.wake(now, "webhook:1");
    await until(() => h.runs.length === 1);
    const reads = countReads(h.db, '"status" = ? and "lane" is null order by');
    // Thousands of turns of the event loop: a loop that wakes for the waiting jobs reads on each
    // timer (31 times here); one that sleeps reads once, twice if the turns outlast its longest sleep (1 s).
    for (let turn = 0; turn < 5_000; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(reads.length).toBeLessThanOrEqual(2);
    release();
    await until(() => h.runs.length === 2);
    release();
    await until(() => h.runs.length === 3);
    release();
  });
});
