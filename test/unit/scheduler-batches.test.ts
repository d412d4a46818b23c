import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BoundJobHandler, JobCompletion } from "../../src/domain/core/index.js";
import { openClock, type SchedulerClock } from "../../src/scheduler/clock.js";
import { Scheduler } from "../../src/scheduler/scheduler.js";
import { LAZY_COMMIT_MS, openDatabase, type Db } from "../../src/store/engine/index.js";
import { insertJob, listJobs } from "../../src/store/core/index.js";
import { T0, until } from "../helpers/scheduler.js";

describe("the scheduler's batches (bench/HISTORY.md)", () => {
  let db: Db;
  let clock: SchedulerClock;
  let scheduler: Scheduler | undefined;
  const schedule = (kind: string, dueAt: number, payload: unknown = null, lane?: string) =>
    insertJob(db, { kind, payload, due_at: dueAt, lane, created_at: clock.now() });
  const meta = () => db.all(db.q.selectFrom("meta").select("key").orderBy("key")).map((row) => row.key);
  const put = (key: string) => db.run(db.q.insertInto("meta").values({ key, value: "v" }));
  const start = (
    handlers: Record<string, BoundJobHandler>,
    options: { maxInFlight?: number; onJobError?: () => void } = {},
  ) => {
    scheduler = new Scheduler({ db, clock, handlers, ...options });
    return scheduler;
  };

  beforeEach(async () => {
    db = await openDatabase(":memory:");
    clock = openClock(db, "manual", T0);
  });
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = undefined;
    db.close();
  });

  it("writes an async job's completion with the removal of its job, in the order the jobs finished", async () => {
    const order: string[] = [];
    const handlers: Record<string, BoundJobHandler> = {
      slow: async (payload) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return () => (order.push(String(payload)), put(`done ${payload}`));
      },
      fast:
        async (payload): Promise<JobCompletion> =>
        () => (order.push(String(payload)), put(`done ${payload}`)),
    };
    schedule("slow", T0, "slow one");
    schedule("fast", T0, "fast one");
    await start(handlers).advance(0);
    expect(order).toEqual(["fast one", "slow one"]);
    expect(meta()).toEqual(["done fast one", "done slow one"]);
    expect(listJobs(db)).toEqual([]);
  });

  it("an advance's completions that signal (a retry scheduled) share the commits, not one commit per batch", async () => {
    let signals = 0;
    const handlers: Record<string, BoundJobHandler> = {
      retry: async (payload) => {
        await new Promise((resolve) => setImmediate(resolve));
        return () => {
          put(`done ${payload}`);
          db.afterCommit(() => signals++);
        };
      },
    };
    for (let i = 0; i < 512; i++) schedule("retry", T0, String(i).padStart(3, "0"));
    let commits = 0;
    db.onCommit(() => commits++);
    const started = performance.now();
    await start(handlers, { maxInFlight: 32 }).advance(0);
    const lazyCommits = Math.floor((performance.now() - started) / LAZY_COMMIT_MS);
    expect(meta()).toHaveLength(512);
    // Eight batches of 64 records were written; each hurried a commit of its own (five or more
    // in 40 ms). Now only the lazy commit (one per LAZY_COMMIT_MS) comes before the end.
    expect(commits).toBeLessThanOrEqual(lazyCommits + 1);
    await db.committed();
    expect(signals).toBe(512);
  });

  it("a completion that throws fails its job and undoes only its own writes and signals", async () => {
    const errors: string[] = [];
    const signals: string[] = [];
    const write = (key: string) => {
      put(key);
      db.afterCommit(() => signals.push(key));
    };
    const handlers: Record<string, BoundJobHandler> = {
      ok: async (payload) => () => write(String(payload)),
      bad: async () => () => {
        write("half-written");
        throw new Error("record broken");
      },
    };
    schedule("ok", T0, "before");
    schedule("bad", T0);
    schedule("ok", T0, "after");
    await start(handlers, { onJobError: () => errors.push("failed") }).advance(0);
    await db.committed();
    expect(meta()).toEqual(["after", "before"]);
    // The batch was written again one record at a time: each kept record signals once.
    expect(signals.sort()).toEqual(["after", "before"]);
    expect(errors).toEqual(["failed"]);
    expect(listJobs(db).map((job) => [job.kind, job.status])).toEqual([["bad", "failed"]]);
  });

  it("in an advance, async jobs without a lane due at one instant run side by side, laned ones one at a time", async () => {
    let active = { free: 0, laned: 0 };
    const most = { free: 0, laned: 0 };
    const track =
      (kind: "free" | "laned"): BoundJobHandler =>
      async () => {
        active = { ...active, [kind]: active[kind] + 1 };
        most[kind] = Math.max(most[kind], active[kind]);
        await new Promise((resolve) => setTimeout(resolve, 5));
        active = { ...active, [kind]: active[kind] - 1 };
      };
    for (let i = 0; i < 10; i++) schedule("free", T0 + 100);
    for (let i = 0; i < 10; i++) schedule("laned", T0 + 100, i, `lane-${i % 2}`);
    await start({ free: track("free"), laned: track("laned") }, { maxInFlight: 4 }).advance(100);
    expect(most).toEqual({ free: 4, laned: 1 });
    expect(listJobs(db)).toEqual([]);
  });

  it("the tick loop runs free jobs while a lane has hundreds of jobs waiting behind a slow one", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const ran: string[] = [];
    for (let i = 0; i < 300; i++) schedule("laned", T0, i, "webhook:busy");
    const s = start({
      laned: async () => {
        ran.push("laned");
        await gate;
      },
      free: () => void ran.push("free"),
    });
    s.start();
    s.wake();
    await until(() => ran.length === 1);
    schedule("free", T0);
    s.wake(T0);
    await until(() => ran.length === 2);
    expect(ran).toEqual(["laned", "free"]);
    // The one in flight is not marked running (first attempts are not claimed in the database).
    expect(listJobs(db, "pending").filter((job) => job.kind === "laned")).toHaveLength(300);
    release();
    await until(() => listJobs(db).length === 0);
  });
});
