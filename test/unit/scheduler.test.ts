import { describe, expect, it } from "vitest";
import { listJobs } from "../../src/store/core/index.js";
import { countReads, useSchedulerHarness, T0 } from "../helpers/scheduler.js";

describe("the scheduler (docs/sandbox.md)", () => {
  const h = useSchedulerHarness();

  describe("advance", () => {
    it("runs each due job at its own due time, in due order", async () => {
      h.schedule("c", T0 + 3_000);
      h.schedule("a", T0 + 1_000);
      h.schedule("b", T0 + 2_000);
      await h.scheduler.advance(5_000);
      expect(h.runs.map((r) => [r.kind, r.at - T0])).toEqual([
        ["a", 1_000],
        ["b", 2_000],
        ["c", 3_000],
      ]);
      expect(h.clock.now()).toBe(T0 + 5_000);
    });

    it("runs jobs due at the same time in the order they were scheduled", async () => {
      for (const kind of ["first", "second", "third"]) h.schedule(kind, T0 + 100);
      await h.scheduler.advance(100);
      expect(h.runs.map((r) => r.kind)).toEqual(["first", "second", "third"]);
    });

    it("runs a job scheduled by a job inside the same advance, at its due time", async () => {
      h.handlers.parent = () => void h.schedule("child", h.clock.now() + 30_000);
      h.handlers.child = () => void h.schedule("grandchild", h.clock.now() + 30_000);
      h.schedule("parent", T0 + 10_000);
      await h.scheduler.advance(70_000);
      expect(h.runs.map((r) => [r.kind, r.at - T0])).toEqual([
        ["parent", 10_000],
        ["child", 40_000],
        ["grandchild", 70_000],
      ]);
    });

    it("includes jobs due exactly at the target, and leaves later ones", async () => {
      h.schedule("at-target", T0 + 60_000);
      h.schedule("after", T0 + 60_001);
      await h.scheduler.advance(60_000);
      expect(h.runs.map((r) => r.kind)).toEqual(["at-target"]);
      expect(listJobs(h.db).map((j) => j.kind)).toEqual(["after"]);
    });

    it("awaits async jobs (HTTP attempts) before moving on", async () => {
      const order: string[] = [];
      h.handlers.slow = async () => {
        await new Promise((resolve) => setImmediate(resolve));
        order.push("slow done");
      };
      h.handlers.next = () => void order.push("next");
      h.schedule("slow", T0 + 1);
      h.schedule("next", T0 + 2);
      await h.scheduler.advance(10);
      expect(order).toEqual(["slow done", "next"]);
    });

    it("with nothing due moves the clock and returns", async () => {
      await h.scheduler.advance(86_400_000);
      expect(h.clock.now()).toBe(T0 + 86_400_000);
      expect(h.runs).toEqual([]);
    });

    it("runs a job scheduled for the same instant by a lane's attempt, though no wake-up told of it", async () => {
      h.handlers.attempt = async (job) => {
        await new Promise((resolve) => setImmediate(resolve));
        if (JSON.parse(job.payload) === 1) h.schedule("follow-up", h.clock.now());
      };
      h.schedule("attempt", T0 + 1_000, 1, "webhook:1");
      h.schedule("attempt", T0 + 1_000, 2, "webhook:1");
      await h.scheduler.advance(5_000);
      expect(h.runs.map((r) => [r.kind, r.at - T0]).sort()).toEqual([
        ["attempt", 1_000],
        ["attempt", 1_000],
        ["follow-up", 1_000],
      ]);
      expect(listJobs(h.db)).toEqual([]);
    });

    it("reads the free jobs once per instant while a lane's attempts run one after another", async () => {
      h.handlers.attempt = () => new Promise<void>((resolve) => setImmediate(resolve));
      for (let i = 0; i < 50; i++) h.schedule("attempt", T0 + 1_000, i, "webhook:1");
      h.schedule("free", T0 + 1_000);
      const reads = countReads(h.db, '"lane" is null and "due_at" <=');
      await h.scheduler.advance(1_000);
      expect(h.runs.filter((r) => r.kind === "attempt")).toHaveLength(50);
      expect(h.runs.some((r) => r.kind === "free")).toBe(true);
      // Once at the instant, once more after its last attempt (nothing new was scheduled).
      expect(reads.length).toBeLessThanOrEqual(3);
    });

    it("runs the first attempts of every lane one at a time in due order, reading them a batch at a time", async () => {
      h.handlers.attempt = () => new Promise<void>((resolve) => setImmediate(resolve));
      // Two lanes interleaved, due at two instants: due order is (due time, scheduling order).
      for (let i = 0; i < 40; i++) h.schedule("attempt", T0 + (i % 4 === 3 ? 2_000 : 1_000), i, `webhook:${i % 2}`);
      const reads = countReads(h.db, '"lane" is not null and "due_at" <=');
      await h.scheduler.advance(5_000);
      const attempts = h.runs.filter((r) => r.kind === "attempt");
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
      h.handlers.retry = () => new Promise<void>((resolve) => setImmediate(resolve));
      h.handlers.attempt = () => new Promise<void>((resolve) => setImmediate(resolve));
      for (let i = 0; i < 60; i++) h.schedule("retry", T0 + 1_000, i);
      h.schedule("attempt", T0 + 1_000, "first", "webhook:1");
      const reads = countReads(h.db, '"lane" is not null and "due_at" <=');
      await h.scheduler.advance(5_000);
      expect(h.runs.filter((r) => r.kind === "retry")).toHaveLength(60);
      expect(h.runs.filter((r) => r.kind === "attempt")).toHaveLength(1);
      // Once at the instant and once when it seems done, where it was twice per retry settled.
      expect(reads.length).toBeLessThanOrEqual(4);
    });

    it("runs a first attempt that a job of the instant schedules, while retries are in flight", async () => {
      let retriesDone = 0;
      let retriesDoneAtAttempt: number | undefined;
      h.handlers.retry = () => new Promise<void>((resolve) => setImmediate(resolve)).then(() => void retriesDone++);
      h.handlers.attempt = () => {
        retriesDoneAtAttempt = retriesDone;
        return new Promise<void>((resolve) => setImmediate(resolve));
      };
      // A synchronous job (a transition) emits an event: its first attempt is due at once.
      h.handlers.transition = () => void h.schedule("attempt", h.clock.now(), "emitted", "webhook:1");
      for (let i = 0; i < 40; i++) h.schedule("retry", T0 + 1_000, i);
      h.schedule("transition", T0 + 1_000);
      await h.scheduler.advance(5_000);
      expect(h.runs.filter((r) => r.kind === "attempt").map((r) => [r.payload, r.at - T0])).toEqual([
        ["emitted", 1_000],
      ]);
      // It starts beside the retries still in flight, not once they are all done.
      expect(retriesDoneAtAttempt).toBeLessThan(40);
      expect(listJobs(h.db)).toEqual([]);
    });

    it("runs a first attempt scheduled in the instant after the attempts already read", async () => {
      h.handlers.attempt = async (job) => {
        await new Promise((resolve) => setImmediate(resolve));
        if (JSON.parse(job.payload) === 0) h.schedule("attempt", h.clock.now(), 99, "webhook:2");
      };
      for (let i = 0; i < 3; i++) h.schedule("attempt", T0 + 1_000, i, `webhook:${i}`);
      await h.scheduler.advance(5_000);
      expect(h.runs.map((r) => [r.payload, r.at - T0])).toEqual([
        [0, 1_000],
        [1, 1_000],
        [2, 1_000],
        [99, 1_000],
      ]);
      expect(listJobs(h.db)).toEqual([]);
    });
  });

  describe("failures", () => {
    it("records a job that throws, rolls back its writes, and goes on with the next", async () => {
      h.handlers.bad = () => {
        h.schedule("written-by-bad", T0 + 1);
        throw new Error("boom");
      };
      h.schedule("bad", T0 + 10);
      h.schedule("good", T0 + 20);
      await h.scheduler.advance(100);
      expect(h.runs.map((r) => r.kind)).toEqual(["bad", "good"]);
      const [failed] = listJobs(h.db, "failed");
      expect(failed).toMatchObject({ kind: "bad", status: "failed" });
      expect(failed?.last_error).toContain("boom");
      expect(listJobs(h.db).map((j) => j.kind)).toEqual(["bad"]);
    });

    it("records an async job that rejects", async () => {
      h.handlers.bad = async () => {
        throw new Error("async boom");
      };
      h.schedule("bad", T0 + 1);
      await h.scheduler.advance(10);
      expect(listJobs(h.db, "failed")[0]?.last_error).toContain("async boom");
    });
  });
});
