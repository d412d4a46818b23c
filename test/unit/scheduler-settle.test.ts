import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BoundJobHandler, SettleOutcome } from "../../src/domain/core/index.js";
import { openClock, type SchedulerClock } from "../../src/scheduler/clock.js";
import { Scheduler } from "../../src/scheduler/scheduler.js";
import { openDatabase, type Db } from "../../src/store/engine/index.js";
import { insertJob, listJobs } from "../../src/store/core/index.js";
import { T0, until } from "../helpers/scheduler.js";

/** A promise the test resolves when it chooses (an HTTP attempt still on the wire). */
function gate(): { opened: Promise<void>; open(): void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A clock that follows the wall in the scheduler's eyes (mode "real") but moves only when the test says. */
function steppedRealClock(start: number): SchedulerClock & { to(ms: number): void } {
  let now = start;
  return { mode: "real", now: () => now, set() {}, save() {}, restore() {}, to: (ms) => void (now = ms) };
}

/** Turns of the event loop, for checking that something has not happened (no wall-clock sleep). */
async function turns(n = 50): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe("settle: nothing due left in flight", () => {
  let db: Db;
  let clock: SchedulerClock;
  let scheduler: Scheduler;
  const meta = () => db.all(db.q.selectFrom("meta").select("key").orderBy("key")).map((row) => row.key);
  const put = (key: string) => db.run(db.q.insertInto("meta").values({ key, value: "v" }));
  /** Schedules a job as a domain module does: the row, then the wake-up after the commit. */
  const schedule = (kind: string, dueAt: number, payload: unknown = null, lane?: string) => {
    const id = insertJob(db, { kind, payload, due_at: dueAt, lane, created_at: clock.now() });
    queueMicrotask(() => scheduler.wake(dueAt, lane));
    return id;
  };
  const start = (handlers: Record<string, BoundJobHandler>, on: SchedulerClock = clock) => {
    clock = on;
    scheduler = new Scheduler({ db, clock, handlers });
    return scheduler;
  };
  /** A settle under way, and whether it has answered. */
  const settling = (timeoutMs = 10_000) => {
    const state: { outcome?: SettleOutcome; answer: Promise<SettleOutcome> } = {
      answer: scheduler.settle(timeoutMs),
    };
    void state.answer.then((outcome) => (state.outcome = outcome));
    return state;
  };

  beforeEach(async () => {
    db = await openDatabase(":memory:");
    clock = openClock(db, "manual", T0);
  });
  afterEach(async () => {
    await scheduler?.stop(0);
    db.close();
  });

  it("waits for a job due now that a job due now scheduled, and for its async attempt, written and committed", async () => {
    const wire = gate();
    start({
      transition: () => void schedule("attempt", clock.now(), "first", "webhook:a"),
      attempt: async (payload) => {
        await wire.opened;
        return () => put(`attempt ${payload} recorded`);
      },
    }).start();
    schedule("transition", T0);
    const settle = settling();
    await until(() => listJobs(db).some((job) => job.kind === "attempt"));
    await turns();
    expect(settle.outcome).toBeUndefined();
    wire.open();
    const outcome = await settle.answer;
    expect(outcome).toMatchObject({ settled: true, now: T0, jobsRun: 2, firstAttempts: 1 });
    // The attempt's record is written (and committed) when the settle answers.
    expect(meta()).toEqual(["attempt first recorded"]);
    expect(listJobs(db)).toEqual([]);
    await expect(db.committed()).resolves.toBeUndefined();
  });

  it("waits for a first attempt queued behind another of its lane; past the timeout it names both, in flight first", async () => {
    const wire = gate();
    const started: unknown[] = [];
    start({
      attempt: async (payload) => {
        started.push(payload);
        await wire.opened;
      },
    }).start();
    const first = schedule("attempt", T0, "one", "webhook:a");
    const second = schedule("attempt", T0, "two", "webhook:a");
    await until(() => started.length === 1);
    const outcome = await scheduler.settle(0);
    expect(outcome.settled).toBe(false);
    expect(outcome.unfinished.map(({ job, inFlight }) => [job.id, inFlight])).toEqual([
      [first, true],
      [second, false],
    ]);
    wire.open();
    expect(await scheduler.settle(10_000)).toMatchObject({ settled: true, jobsRun: 2, firstAttempts: 2 });
    expect(started).toEqual(["one", "two"]);
  });

  it("never moves a manual clock, and leaves jobs due later alone", async () => {
    const ran: string[] = [];
    start({ later: () => void ran.push("later") }).start();
    schedule("later", T0 + 1);
    expect(await scheduler.settle(10_000)).toMatchObject({ settled: true, now: T0, jobsRun: 0, firstAttempts: 0 });
    expect(clock.now()).toBe(T0);
    expect(ran).toEqual([]);
    expect(listJobs(db, "pending")).toHaveLength(1);
  });

  it("does not count jobs that finished before it was called", async () => {
    const ran: string[] = [];
    start({ quick: async () => () => void ran.push("quick") }).start();
    schedule("quick", T0);
    await until(() => ran.length === 1 || listJobs(db).length === 0);
    expect(await scheduler.settle(10_000)).toMatchObject({ settled: true, jobsRun: 0 });
    expect(ran).toEqual(["quick"]);
  });

  describe("on a real clock", () => {
    it("waits for what a late job scheduled due at once (after the settle's now), not for work scheduled by others since", async () => {
      const wire = gate();
      const stranger = gate();
      const real = steppedRealClock(T0);
      start(
        {
          transition: () => void schedule("attempt", real.now(), "caused", "webhook:a"),
          attempt: async (payload) => {
            await (payload === "caused" ? wire.opened : stranger.opened);
            return () => put(`attempt ${payload}`);
          },
        },
        real,
      );
      // Due at T0 and not run yet when settle is called (the loop is late).
      schedule("transition", T0);
      const settle = settling();
      real.to(T0 + 50);
      // Another client's event, emitted after the call: not waited for.
      schedule("attempt", T0 + 50, "stranger's", "webhook:b");
      scheduler.start();
      await until(() => listJobs(db).filter((job) => job.kind === "attempt").length === 2);
      await turns();
      expect(settle.outcome).toBeUndefined();
      wire.open();
      expect(await settle.answer).toMatchObject({ settled: true, now: T0, jobsRun: 2, firstAttempts: 1 });
      expect(meta()).toEqual(["attempt caused"]);
      stranger.open();
    });

    it("waits for a job an async job's completion scheduled due at once (a transcode's follow-up send)", async () => {
      const real = steppedRealClock(T0);
      const wire = gate();
      start(
        {
          transcode: async () => () => void schedule("send", real.now()),
          send: async () => {
            await wire.opened;
            return () => put("sent");
          },
        },
        real,
      );
      schedule("transcode", T0);
      const settle = settling();
      real.to(T0 + 20);
      scheduler.start();
      await until(() => listJobs(db).some((job) => job.kind === "send"));
      await turns();
      expect(settle.outcome).toBeUndefined();
      wire.open();
      expect(await settle.answer).toMatchObject({ settled: true, jobsRun: 2, firstAttempts: 0 });
      expect(meta()).toEqual(["sent"]);
    });
  });

  it("ends, unsettled, when the scheduler stops", async () => {
    start({
      attempt: (_payload, run) => new Promise<void>((resolve) => run.signal.addEventListener("abort", () => resolve())),
    }).start();
    schedule("attempt", T0, null, "webhook:a");
    await until(() => listJobs(db).length === 1);
    const settle = settling();
    await turns();
    await scheduler.stop(0);
    expect(await settle.answer).toMatchObject({ settled: false, stopped: true });
  });
});
