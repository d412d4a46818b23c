import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jobHandlersOf, type DomainContext, type JobHandler } from "../../src/domain/core/index.js";
import { openClock } from "../../src/scheduler/clock.js";
import { Scheduler } from "../../src/scheduler/scheduler.js";
import { insertJob, listJobs } from "../../src/store/core/index.js";
import { openDatabase, type Db } from "../../src/store/engine/index.js";
import { T0, until } from "../helpers/scheduler.js";
import { countStatements } from "../helpers/statement-count.js";

/**
 * An async job (a webhook attempt) starts with no savepoint around its handler: an async function
 * throws nothing to its caller, so a savepoint could undo none of its writes. A handler that only
 * returns a promise may write and throw before it does: it keeps its savepoint.
 */
describe("starting async jobs", () => {
  let db: Db;
  let scheduler: Scheduler;
  let release = () => {};
  let started = 0;
  const gate = () =>
    new Promise<void>((resolve) => {
      release = resolve;
    });

  const jobs: Record<string, JobHandler> = {
    "async.ok": async () => {
      started++;
      await gate();
    },
    "async.bad": async () => {
      throw new Error("async boom");
    },
    "returns.promise": () => {
      started++;
      return gate();
    },
  };

  beforeEach(async () => {
    started = 0;
    db = await openDatabase(":memory:");
    const clock = openClock(db, "manual", T0);
    scheduler = new Scheduler({ db, clock, handlers: jobHandlersOf({} as DomainContext, [{ name: "test", jobs }]) });
  });

  afterEach(async () => {
    release();
    await scheduler.stop();
    db.close();
  });

  const schedule = (kind: string, lane?: string) =>
    insertJob(db, { kind, payload: null, due_at: T0, lane, created_at: T0 });

  it("tells async functions from functions that return a promise", () => {
    const handlers = jobHandlersOf({} as DomainContext, [{ name: "test", jobs }]);
    expect(handlers["async.ok"]?.isAsync).toBe(true);
    expect(handlers["returns.promise"]?.isAsync).toBe(false);
  });

  it("starts a first attempt (laned) with no savepoint, and one that only returns a promise with one", async () => {
    schedule("async.ok", "lane-a");
    let advancing: Promise<number> | undefined;
    const first = await countStatements(async () => {
      advancing = scheduler.advance(0);
      await until(() => started === 1);
    });
    expect([...first.bySql.keys()].filter((sql) => sql.startsWith("SAVEPOINT"))).toEqual([]);
    release();
    await advancing;

    schedule("returns.promise", "lane-b");
    const kept = await countStatements(async () => {
      advancing = scheduler.advance(0);
      await until(() => started === 2);
    });
    expect(kept.bySql.get("SAVEPOINT msgctl")).toBe(1);
    release();
    await advancing;
  });

  it("marks a retry (no lane) running while it is in flight, and records one that rejects as failed", async () => {
    schedule("async.ok");
    const advancing = scheduler.advance(0);
    await until(() => listJobs(db, "running").length === 1);
    release();
    await advancing;
    expect(listJobs(db)).toEqual([]);

    schedule("async.bad");
    await scheduler.advance(0);
    expect(listJobs(db, "failed")[0]?.last_error).toContain("async boom");
  });
});
