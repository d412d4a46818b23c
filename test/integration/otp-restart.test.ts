import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { launchSandbox, type Sandbox } from "../../src/runtime/launch-sandbox.js";

const OTP_KEY = "otp_live_acme_000000000000000";

async function otp(
  sandbox: Sandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await sandbox.otpApp.request(path, {
    method,
    headers: { authorization: `Bearer ${OTP_KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe("OTP state survives a restart (docs/sandbox.md)", () => {
  it("keeps the simulated outage on, and expires a challenge at its time after the restart", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-otp-restart-")), "sandbox.db");
    const first = await launchSandbox({ db, clock: "manual", listen: false });
    const created = (await otp(first, "POST", "/v1/challenges", { phone: "+14155550123" })).body.data;
    await first.scheduler.advance(300_000);
    expect((await otp(first, "POST", "/sandbox/v1/otp/fault", { fault: "unavailable" })).status).toBe(200);
    await first.stop();

    const second = await launchSandbox({ db, clock: "manual", listen: false });
    expect((await otp(second, "GET", `/v1/challenges/${created.id}`)).status).toBe(503);
    await otp(second, "POST", "/sandbox/v1/otp/fault", { fault: "unavailable", off: true });
    expect((await otp(second, "GET", `/v1/challenges/${created.id}`)).body.data.status).toBe("pending");
    await second.scheduler.advance(300_000);
    const row = second.db.first(second.db.q.selectFrom("otp_challenges").select("status").where("id", "=", created.id));
    expect(row?.status).toBe("expired");
    await second.stop();
  });
});
