import { describe, expect, it } from "vitest";
import { manualClock } from "../../src/scheduler/clock.js";
import { Scheduler } from "../../src/scheduler/scheduler.js";
import { listJobs } from "../../src/store/core/index.js";
import { countReads, recordingHandlers, useSchedulerHarness, T0, until } from "../helpers/scheduler.js";

describe("the scheduler (docs/sandbox.md)", () => {
  const h = useSchedulerHarness();

  describe("the tick loop", () => {
    it("runs work already due at once, without an advance (manual clock)", async () => {
      const done = new Promise<void>((resolve) => {
        h.handlers.now = () => resolve();
      });
      h.schedule("now", T0);
      h.scheduler.start();
      h.scheduler.wake();
      await done;
      expect(h.runs.map((r) => r.kind)).toEqual(["now"]);
      expect(h.clock.now()).toBe(T0);
    });

    it("keeps jobs of one lane one at a time, in order", async () => {
      const log: string[] = [];
      const gate: (() => void)[] = [];
      h.handlers.lane = (job) =>
        new Promise<void>((resolve) => {
          log.push(`start ${JSON.parse(job.payload)}`);
          gate.push(() => {
            log.push(`end ${JSON.parse(job.payload)}`);
            resolve();
          });
        });
      h.schedule("lane", T0, 1, "webhook:1");
      h.schedule("lane", T0, 2, "webhook:1");
      h.scheduler.start();
      h.scheduler.wake();
      await until(() => gate.length === 1);
      expect(log).toEqual(["start 1"]);
      gate.shift()?.();
      await until(() => gate.length === 1 && log.length === 3);
      gate.shift()?.();
      await until(() => log.length === 4);
      expect(log).toEqual(["start 1", "end 1", "start 2", "end 2"]);
    });
    it("runs a lane's jobs in order, reading them a batch at a time, then one scheduled meanwhile", async () => {
      h.handlers.lane = async (job) => {
        await new Promise((resolve) => setImmediate(resolve));
        // An event emitted while the lane's first jobs are read ahead: it runs after them.
        if (JSON.parse(job.payload) === 10) h.schedule("lane", h.clock.now(), 999, "webhook:1");
      };
      for (let i = 0; i < 100; i++) h.schedule("lane", T0, i, "webhook:1");
      const reads = countReads(h.db, '"lane" = ?');
      h.scheduler.start();
      h.scheduler.wake(T0, "webhook:1");
      await until(() => h.runs.length === 101);
      expect(h.runs.map((r) => r.payload)).toEqual([...[...Array(100).keys()], 999]);
      await until(() => listJobs(h.db).length === 0);
      // 64 at a time, where it was a read before every job (a hundred and one).
      expect(reads.length).toBeLessThanOrEqual(4);
    });
  });

  describe("persistence", () => {
    it("requeues jobs that were running when the process died", async () => {
      const id = h.schedule("interrupted", T0);
      h.db.run(h.db.q.updateTable("jobs").set({ status: "running" }).where("id", "=", id));
      const done = new Promise<void>((resolve) => {
        h.handlers.interrupted = () => resolve();
      });
      h.scheduler.start();
      h.scheduler.wake();
      await done;
      expect(listJobs(h.db)).toEqual([]);
    });

    it("resumes a manual clock's jobs from the database", async () => {
      h.schedule("later", T0 + 3_600_000);
      const again = new Scheduler({
        db: h.db,
        clock: manualClock(h.db, T0),
        handlers: recordingHandlers((kind) => void h.runs.push({ kind, at: 0, payload: null })),
      });
      await again.advance(3_600_000);
      await again.stop();
      expect(h.runs.map((r) => r.kind)).toEqual(["later"]);
    });
  });

  describe("replaceState (a snapshot's restore)", () => {
    it("moves a manual clock to the state's time, backwards too, and requeues the jobs it left running", async () => {
      await h.scheduler.advance(60_000);
      await h.scheduler.replaceState(async () => {
        h.db.run(h.db.q.deleteFrom("jobs"));
        const id = h.schedule("saved-running", T0 + 2_000);
        h.db.run(h.db.q.updateTable("jobs").set({ status: "running" }).where("id", "=", id));
        return T0 + 1_500;
      });
      expect(h.clock.now()).toBe(T0 + 1_500);
      expect(listJobs(h.db).map((job) => [job.kind, job.status])).toEqual([["saved-running", "pending"]]);
      await h.scheduler.advance(1_000);
      expect(h.runs.map((r) => [r.kind, r.at - T0])).toEqual([["saved-running", 2_000]]);
    });

    it("abandons an async job in flight and restarts a settle under way on the new state", async () => {
      const own = new Scheduler({
        db: h.db,
        clock: h.clock,
        handlers: recordingHandlers((kind, _payload, run) => {
          h.runs.push({ kind, at: h.clock.now(), payload: null });
          // On the wire until aborted: a receiver that never answers.
          return new Promise<void>((resolve) => run.signal.addEventListener("abort", () => resolve()));
        }),
      });
      own.start();
      h.schedule("hanging", T0);
      own.wake(T0, null);
      await until(() => h.runs.length === 1);
      const settled = own.settle(60_000);
      await own.replaceState(async () => {
        h.db.run(h.db.q.deleteFrom("jobs"));
        return T0;
      });
      // Nothing is due in the new state: the settle answers, settled, without waiting out its timeout.
      expect(await settled).toMatchObject({ settled: true, jobsRun: 0, unfinished: [] });
      expect(h.runs.map((r) => r.kind)).toEqual(["hanging"]);
      await own.stop();
    });
  });
});
