import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { manualClock, type SchedulerClock } from "../../src/scheduler/clock.js";
import { Scheduler } from "../../src/scheduler/scheduler.js";
import type { Db } from "../../src/store/engine/index.js";
import { listJobs } from "../../src/store/core/index.js";
import {
  countReads as countReadsOf,
  recordingHandlers,
  schedulerHarness,
  T0,
  until,
  type SchedulerHarness,
} from "../helpers/scheduler.js";

describe("the scheduler (docs/sandbox.md)", () => {
  let db: Db;
  let clock: SchedulerClock;
  let runs: SchedulerHarness["runs"];
  let scheduler: Scheduler;
  let handlers: SchedulerHarness["handlers"];
  let schedule: SchedulerHarness["schedule"];
  const countReads = (fragment: string) => countReadsOf(db, fragment);

  beforeEach(async () => {
    ({ db, clock, runs, handlers, scheduler, schedule } = await schedulerHarness());
  });

  afterEach(async () => {
    await scheduler.stop();
    db.close();
  });

  describe("advance", () => {
    it("runs each due job at its own due time, in due order", async () => {
      schedule("c", T0 + 3_000);
      schedule("a", T0 + 1_000);
      schedule("b", T0 + 2_000);
      await scheduler.advance(5_000);
      expect(runs.map((r) => [r.kind, r.at - T0])).toEqual([
        ["a", 1_000],
        ["b", 2_000],
        ["c", 3_000],
      ]);
      expect(clock.now()).toBe(T0 + 5_000);
    });

    it("runs jobs due at the same time in the order they were scheduled", async () => {
      for (const kind of ["first", "second", "third"]) schedule(kind, T0 + 100);
      await scheduler.advance(100);
      expect(runs.map((r) => r.kind)).toEqual(["first", "second", "third"]);
    });

    it("runs a job scheduled by a job inside the same advance, at its due time", async () => {
      handlers.parent = () => void schedule("child", clock.now() + 30_000);
      handlers.child = () => void schedule("grandchild", clock.now() + 30_000);
      schedule("parent", T0 + 10_000);
      await scheduler.advance(70_000);
      expect(runs.map((r) => [r.kind, r.at - T0])).toEqual([
        ["parent", 10_000],
        ["child", 40_000],
        ["grandchild", 70_000],
      ]);
    });

    it("includes jobs due exactly at the target, and leaves later ones", async () => {
      schedule("at-target", T0 + 60_000);
      schedule("after", T0 + 60_001);
      await scheduler.advance(60_000);
      expect(runs.map((r) => r.kind)).toEqual(["at-target"]);
      expect(listJobs(db).map((j) => j.kind)).toEqual(["after"]);
    });

    it("awaits async jobs (HTTP attempts) before moving on", async () => {
      const order: string[] = [];
      handlers.slow = async () => {
        await new Promise((resolve) => setImmediate(resolve));
        order.push("slow done");
      };
      handlers.next = () => void order.push("next");
      schedule("slow", T0 + 1);
      schedule("next", T0 + 2);
      await scheduler.advance(10);
      expect(order).toEqual(["slow done", "next"]);
    });

    it("with nothing due moves the clock and returns", async () => {
      await scheduler.advance(86_400_000);
      expect(clock.now()).toBe(T0 + 86_400_000);
      expect(runs).toEqual([]);
    });

    it("runs a job scheduled for the same instant by a lane's attempt, though no wake-up told of it", async () => {
      handlers.attempt = async (job) => {
        await new Promise((resolve) => setImmediate(resolve));
        if (JSON.parse(job.payload) === 1) schedule("follow-up", clock.now());
      };
      schedule("attempt", T0 + 1_000, 1, "webhook:1");
      schedule("attempt", T0 + 1_000, 2, "webhook:1");
      await scheduler.advance(5_000);
      expect(runs.map((r) => [r.kind, r.at - T0]).sort()).toEqual([
        ["attempt", 1_000],
        ["attempt", 1_000],
        ["follow-up", 1_000],
      ]);
      expect(listJobs(db)).toEqual([]);
    });

    it("reads the free jobs once per instant while a lane's attempts run one after another", async () => {
      handlers.attempt = () => new Promise<void>((resolve) => setImmediate(resolve));
      for (let i = 0; i < 50; i++) schedule("attempt", T0 + 1_000, i, "webhook:1");
      schedule("free", T0 + 1_000);
      const reads = countReads('"lane" is null and "due_at" <=');
      await scheduler.advance(1_000);
      expect(runs.filter((r) => r.kind === "attempt")).toHaveLength(50);
      expect(runs.some((r) => r.kind === "free")).toBe(true);
      // Once at the instant, once more after its last attempt (nothing new was scheduled).
      expect(reads.length).toBeLessThanOrEqual(3);
    });

    it("runs the first attempts of every lane one at a time in due order, reading them a batch at a time", async () => {
      handlers.attempt = () => new Promise<void>((resolve) => setImmediate(resolve));
      // Two lanes interleaved, due at two instants: due order is (due time, scheduling order).
      for (let i = 0; i < 40; i++) schedule("attempt", T0 + (i % 4 === 3 ? 2_000 : 1_000), i, `webhook:${i % 2}`);
      const reads = countReads('"lane" is not null and "due_at" <=');
      await scheduler.advance(5_000);
      const attempts = runs.filter((r) => r.kind === "attempt");
      const early = [...Array(40).keys()].filter((i) => i % 4 !== 3);
      const late = [...Array(40).keys()].filter((i) => i % 4 === 3);
      expect(attempts.map((r) => [r.payload, r.at - T0])).toEqual([
        ...early.map((i) => [i, 1_000]),
        ...late.map((i) => [i, 2_000]),
      ]);
      // A read at each instant the advance visits and one more once its attempts are done (the
      // start, 1 s and 2 s: five), where it was one read per attempt (forty-odd).
      expect(reads.length).toBeLessThanOrEqual(6);
    });

    it("does not read the first attempts again while retries settle and nothing new can be due", async () => {
      handlers.retry = () => new Promise<void>((resolve) => setImmediate(resolve));
      handlers.attempt = () => new Promise<void>((resolve) => setImmediate(resolve));
      for (let i = 0; i < 60; i++) schedule("retry", T0 + 1_000, i);
      schedule("attempt", T0 + 1_000, "first", "webhook:1");
      const reads = countReads('"lane" is not null and "due_at" <=');
      await scheduler.advance(5_000);
      expect(runs.filter((r) => r.kind === "retry")).toHaveLength(60);
      expect(runs.filter((r) => r.kind === "attempt")).toHaveLength(1);
      // Once at the instant and once when it seems done, where it was twice per retry settled.
      expect(reads.length).toBeLessThanOrEqual(4);
    });

    it("runs a first attempt that a job of the instant schedules, while retries are in flight", async () => {
      let retriesDone = 0;
      let retriesDoneAtAttempt: number | undefined;
      handlers.retry = () => new Promise<void>((resolve) => setImmediate(resolve)).then(() => void retriesDone++);
      handlers.attempt = () => {
        retriesDoneAtAttempt = retriesDone;
        return new Promise<void>((resolve) => setImmediate(resolve));
      };
      // A synchronous job (a transition) emits an event: its first attempt is due at once.
      handlers.transition = () => void schedule("attempt", clock.now(), "emitted", "webhook:1");
      for (let i = 0; i < 40; i++) schedule("retry", T0 + 1_000, i);
      schedule("transition", T0 + 1_000);
      await scheduler.advance(5_000);
      expect(runs.filter((r) => r.kind === "attempt").map((r) => [r.payload, r.at - T0])).toEqual([["emitted", 1_000]]);
      // It starts beside the retries still in flight, not once they are all done.
      expect(retriesDoneAtAttempt).toBeLessThan(40);
      expect(listJobs(db)).toEqual([]);
    });

    it("runs a first attempt scheduled in the instant after the attempts already read", async () => {
      handlers.attempt = async (job) => {
        await new Promise((resolve) => setImmediate(resolve));
        if (JSON.parse(job.payload) === 0) schedule("attempt", clock.now(), 99, "webhook:2");
      };
      for (let i = 0; i < 3; i++) schedule("attempt", T0 + 1_000, i, `webhook:${i}`);
      await scheduler.advance(5_000);
      expect(runs.map((r) => [r.payload, r.at - T0])).toEqual([
        [0, 1_000],
        [1, 1_000],
        [2, 1_000],
        [99, 1_000],
      ]);
      expect(listJobs(db)).toEqual([]);
    });
  });

  describe("failures", () => {
    it("records a job that throws, rolls back its writes, and goes on with the next", async () => {
      handlers.bad = () => {
        schedule("written-by-bad", T0 + 1);
        throw new Error("boom");
      };
      schedule("bad", T0 + 10);
      schedule("good", T0 + 20);
      await scheduler.advance(100);
      expect(runs.map((r) => r.kind)).toEqual(["bad", "good"]);
      const [failed] = listJobs(db, "failed");
      expect(failed).toMatchObject({ kind: "bad", status: "failed" });
      expect(failed?.last_error).toContain("boom");
      expect(listJobs(db).map((j) => j.kind)).toEqual(["bad"]);
    });

    it("records an async job that rejects", async () => {
      handlers.bad = async () => {
        throw new Error("async boom");
      };
      schedule("bad", T0 + 1);
      await scheduler.advance(10);
      expect(listJobs(db, "failed")[0]?.last_error).toContain("async boom");
    });
  });

  describe("the tick loop", () => {
    it("runs work already due at once, without an advance (manual clock)", async () => {
      const done = new Promise<void>((resolve) => {
        handlers.now = () => resolve();
      });
      schedule("now", T0);
      scheduler.start();
      scheduler.wake();
      await done;
      expect(runs.map((r) => r.kind)).toEqual(["now"]);
      expect(clock.now()).toBe(T0);
    });

    it("keeps jobs of one lane one at a time, in order", async () => {
      const log: string[] = [];
      const gate: (() => void)[] = [];
      handlers.lane = (job) =>
        new Promise<void>((resolve) => {
          log.push(`start ${JSON.parse(job.payload)}`);
          gate.push(() => {
            log.push(`end ${JSON.parse(job.payload)}`);
            resolve();
          });
        });
      schedule("lane", T0, 1, "webhook:1");
      schedule("lane", T0, 2, "webhook:1");
      scheduler.start();
      scheduler.wake();
      await until(() => gate.length === 1);
      expect(log).toEqual(["start 1"]);
      gate.shift()?.();
      await until(() => gate.length === 1 && log.length === 3);
      gate.shift()?.();
      await until(() => log.length === 4);
      expect(log).toEqual(["start 1", "end 1", "start 2", "end 2"]);
    });
    it("runs a lane's jobs in order, reading them a batch at a time, then one scheduled meanwhile", async () => {
      handlers.lane = async (job) => {
        await new Promise((resolve) => setImmediate(resolve));
        // An event emitted while the lane's first jobs are read ahead: it runs after them.
        if (JSON.parse(job.payload) === 10) schedule("lane", clock.now(), 999, "webhook:1");
      };
      for (let i = 0; i < 100; i++) schedule("lane", T0, i, "webhook:1");
      const reads = countReads('"lane" = ?');
      scheduler.start();
      scheduler.wake(T0, "webhook:1");
      await until(() => runs.length === 101);
      expect(runs.map((r) => r.payload)).toEqual([...[...Array(100).keys()], 999]);
      await until(() => listJobs(db).length === 0);
      // 64 at a time, where it was a read before every job (a hundred and one).
      expect(reads.length).toBeLessThanOrEqual(4);
    });
  });

  describe("persistence", () => {
    it("requeues jobs that were running when the process died", async () => {
      const id = schedule("interrupted", T0);
      db.run(db.q.updateTable("jobs").set({ status: "running" }).where("id", "=", id));
      const done = new Promise<void>((resolve) => {
        handlers.interrupted = () => resolve();
      });
      scheduler.start();
      scheduler.wake();
      await done;
      expect(listJobs(db)).toEqual([]);
    });

    it("resumes a manual clock's jobs from the database", async () => {
      schedule("later", T0 + 3_600_000);
      const again = new Scheduler({
        db,
        clock: manualClock(db, T0),
        handlers: recordingHandlers((kind) => void runs.push({ kind, at: 0, payload: null })),
      });
      await again.advance(3_600_000);
      await again.stop();
      expect(runs.map((r) => r.kind)).toEqual(["later"]);
    });
  });
  describe("replaceState (a snapshot's restore)", () => {
    it("moves a manual clock to the state's time, backwards too, and requeues the jobs it left running", async () => {
      await scheduler.advance(60_000);
      await scheduler.replaceState(async () => {
        db.run(db.q.deleteFrom("jobs"));
        const id = schedule("saved-running", T0 + 2_000);
        db.run(db.q.updateTable("jobs").set({ status: "running" }).where("id", "=", id));
        return T0 + 1_500;
      });
      expect(clock.now()).toBe(T0 + 1_500);
      expect(listJobs(db).map((job) => [job.kind, job.status])).toEqual([["saved-running", "pending"]]);
      await scheduler.advance(1_000);
      expect(runs.map((r) => [r.kind, r.at - T0])).toEqual([["saved-running", 2_000]]);
    });

    it("abandons an async job in flight and restarts a settle under way on the new state", async () => {
      const own = new Scheduler({
        db,
        clock,
        handlers: recordingHandlers((kind, _payload, run) => {
          runs.push({ kind, at: clock.now(), payload: null });
          // On the wire until aborted: a receiver that never answers.
          return new Promise<void>((resolve) => run.signal.addEventListener("abort", () => resolve()));
        }),
      });
      own.start();
      schedule("hanging", T0);
      own.wake(T0, null);
      await until(() => runs.length === 1);
      const settled = own.settle(60_000);
      await own.replaceState(async () => {
        db.run(db.q.deleteFrom("jobs"));
        return T0;
      });
      // Nothing is due in the new state: the settle answers, settled, without waiting out its timeout.
      expect(await settled).toMatchObject({ settled: true, jobsRun: 0, unfinished: [] });
      expect(runs.map((r) => r.kind)).toEqual(["hanging"]);
      await own.stop();
    });
  });
});
