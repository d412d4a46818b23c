import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scheduleJob, type DomainModule } from "../../src/domain/core/index.js";
import { MODULES } from "../../src/runtime/modules.js";
import { launchSandbox } from "../../src/runtime/launch-sandbox.js";
import { listJobs } from "../../src/store/core/index.js";

describe("jobs survive a restart (docs/sandbox.md)", () => {
  const ran: { at: number; payload: unknown }[] = [];
  const rememberer: DomainModule = {
    name: "test",
    jobs: { "test.remember": (ctx, payload) => void ran.push({ at: ctx.clock.now(), payload }) },
  };
  afterEach(() => {
    ran.length = 0;
  });

  it("runs after the restart what was scheduled before it, at its due time", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-restart-")), "sandbox.db");
    const first = await launchSandbox({ db, clock: "manual", listen: false });
    const start = first.ctx.clock.now();
    first.ctx.db.transaction(() => {
      scheduleJob(first.ctx, "test.remember", { n: 1 }, start + 3_600_000);
      scheduleJob(first.ctx, "test.remember", { n: 2 }, start + 7_200_000);
    });
    await first.stop();

    const second = await launchSandbox({ db, clock: "manual", listen: false, modules: [...MODULES, rememberer] });
    expect(second.ctx.clock.now()).toBe(start);
    await second.scheduler.advance(3_600_000);
    expect(ran).toEqual([{ at: start + 3_600_000, payload: { n: 1 } }]);
    await second.scheduler.advance(3_600_000);
    expect(ran.map((r) => r.payload)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(listJobs(second.db)).toEqual([]);
    await second.stop();
  });

  it("a reset keeps the manual clock saved: after reset and advance, a restart resumes at that time", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-restart-")), "sandbox.db");
    const first = await launchSandbox({ db, clock: "manual", listen: false });
    const start = first.ctx.clock.now();
    await first.control.reset();
    await first.control.advance(3_600_000);
    await first.stop();

    const second = await launchSandbox({ db, clock: "manual", listen: false });
    expect(second.ctx.clock.now()).toBe(start + 3_600_000);
    await second.stop();
  });

  it("records a job with no handler as failed instead of losing it", async () => {
    const sandbox = await launchSandbox({ clock: "manual", listen: false });
    sandbox.ctx.db.transaction(
      () => void scheduleJob(sandbox.ctx, "test.unknown-kind", {}, sandbox.ctx.clock.now() + 1),
    );
    await sandbox.scheduler.advance(10);
    expect(listJobs(sandbox.db, "failed")[0]).toMatchObject({
      kind: "test.unknown-kind",
      last_error: expect.stringContaining("No handler"),
    });
    await sandbox.stop();
  });
});
