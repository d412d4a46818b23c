import { describe, expect, it } from "vitest";
import { listJobs } from "../../src/store/core/index.js";
import {
  eventTypes,
  events,
  expectStatusAt,
  fault,
  IPHONE,
  MAIN,
  message,
  resetBeforeEach,
  SALES,
  send,
  statusOf,
  SUPPORT,
} from "../helpers/messages.js";
import { useSandbox } from "../helpers/sandbox.js";

const S = 1_000;
const MIN = 60 * S;
const HOUR = 60 * MIN;

describe("transient send errors (spec section 3): retried every 30 s, failed after 5 attempts", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("sends on the 5th attempt when the first 4 fail, exactly 30 s apart", async () => {
    await fault(t, MAIN, { fault: "transient", count: 4 });
    const start = t.sandbox.ctx.clock.now();
    const sent = await send(t, {});
    // Attempts at +0.2 s, +30.2 s, +60.2 s, +90.2 s fail; the 5th at +120.2 s goes out.
    await expectStatusAt(t, sent.id, 120_199, "queued", start);
    await expectStatusAt(t, sent.id, 120_200, "sent", start);
    expect((await fault(t, MAIN, { fault: "transient", count: 0 })).transient_remaining).toBe(0);
  });

  it("fails on the 5th failed attempt, at +2 min, with error and message.failed, and uses exactly 5 errors", async () => {
    await fault(t, MAIN, { fault: "transient", count: 10 });
    const start = t.sandbox.ctx.clock.now();
    const sent = await send(t, {});
    await expectStatusAt(t, sent.id, 120_199, "queued", start);
    await expectStatusAt(t, sent.id, 120_200, "failed", start);
    const failed = await message(t, sent.id);
    expect(failed.error).toMatch(/5 attempts/);
    expect(await eventTypes(t, sent.id)).toEqual(["message.failed"]);
    const faults = (await t.api("GET", `/sandbox/v1/numbers/${encodeURIComponent(MAIN)}/faults`)).body.data;
    expect(faults.transient_remaining).toBe(5);
    // Nothing is pending for it any more.
    await t.advance(HOUR);
    expect(await statusOf(t, sent.id)).toBe("failed");
  });

  it("`transient --off` clears the pending errors: the next attempt goes out", async () => {
    await fault(t, MAIN, { fault: "transient", count: 3 });
    const start = t.sandbox.ctx.clock.now();
    const sent = await send(t, {});
    await t.advance(1_000);
    await fault(t, MAIN, { fault: "transient", off: true });
    await expectStatusAt(t, sent.id, 30_199, "queued", start);
    await expectStatusAt(t, sent.id, 30_200, "sent", start);
  });
});

describe("sending number offline (spec section 3): backoff 30 s doubling to 5 min, not counted, failed after 24 h", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("shows the number offline in GET /v1/numbers", async () => {
    await fault(t, MAIN, { fault: "offline" });
    const numbers = (await t.api("GET", "/v1/numbers")).body.data;
    expect(numbers.find((n: any) => n.handle === MAIN).status).toBe("offline");
    await fault(t, MAIN, { fault: "online" });
    expect((await t.api("GET", "/v1/numbers")).body.data.find((n: any) => n.handle === MAIN).status).toBe("online");
  });

  it("retries at +30 s, +60 s, +120 s, +240 s, then every 5 min: a number back online sends at the next slot", async () => {
    await fault(t, MAIN, { fault: "offline" });
    const start = t.sandbox.ctx.clock.now();
    const sent = await send(t, {});
    // Attempts: 0.2 s, 30.2 s, 90.2 s, 210.2 s, 450.2 s, 750.2 s, 1050.2 s…
    await t.advance(100 * S);
    await fault(t, MAIN, { fault: "online" });
    await expectStatusAt(t, sent.id, 210_199, "queued", start);
    await expectStatusAt(t, sent.id, 210_200, "sent", start);
  });

  it("keeps the 5-minute ceiling", async () => {
    await fault(t, MAIN, { fault: "offline" });
    const start = t.sandbox.ctx.clock.now();
    const sent = await send(t, {});
    await t.advance(1_000 * S);
    await fault(t, MAIN, { fault: "online" });
    await expectStatusAt(t, sent.id, 1_050_199, "queued", start);
    await expectStatusAt(t, sent.id, 1_050_200, "sent", start);
  });

  it("does not count offline attempts toward the 5: an hour offline, then online, sends", async () => {
    await fault(t, MAIN, { fault: "offline" });
    const sent = await send(t, {});
    await t.advance(HOUR);
    await fault(t, MAIN, { fault: "online" });
    await t.advance(5 * MIN);
    expect(await statusOf(t, sent.id)).toBe("read");
  });

  it("does not use up transient errors while offline", async () => {
    await fault(t, MAIN, { fault: "transient", count: 2 });
    await fault(t, MAIN, { fault: "offline" });
    await send(t, {});
    await t.advance(HOUR);
    const faults = await fault(t, MAIN, { fault: "online" });
    expect(faults.transient_remaining).toBe(2);
  });

  it("fails exactly 24 h after the first attempt while still offline", async () => {
    await fault(t, MAIN, { fault: "offline" });
    const start = t.sandbox.ctx.clock.now();
    const sent = await send(t, {});
    await expectStatusAt(t, sent.id, 24 * HOUR + 199, "queued", start);
    await expectStatusAt(t, sent.id, 24 * HOUR + 200, "failed", start);
    expect((await message(t, sent.id)).error).toMatch(/offline 24 hours/);
    expect(await eventTypes(t, sent.id)).toEqual(["message.failed"]);
  });
});

describe("WhatsApp rate limiting (docs/messages.md): per-number cool-down 2 min doubling to 30 min", () => {
  const t = useSandbox();
  resetBeforeEach(t);
  const whatsapp = { from_handle: SUPPORT, channel: "whatsapp" };

  it("retries after each cool-down, 2, 4, 8, 16, 30, 30 min, escalating per repeat", async () => {
    await fault(t, SUPPORT, { fault: "rate-limited" });
    const start = t.sandbox.ctx.clock.now();
    const sent = await send(t, whatsapp);
    let attempt = 200;
    for (const [level, minutes] of [
      [0, 2],
      [1, 4],
      [2, 8],
      [3, 16],
      [4, 30],
      [5, 30],
    ] as const) {
      await expectStatusAt(t, sent.id, attempt, "queued", start);
      const faults = (await t.api("GET", `/sandbox/v1/numbers/${encodeURIComponent(SUPPORT)}/faults`)).body.data;
      expect(faults).toMatchObject({ status: "rate_limited", rate_limited: true, rate_limit_level: level });
      expect(Date.parse(faults.rate_limited_until) - start).toBe(attempt + minutes * MIN);
      attempt += minutes * MIN;
    }
  });

  it("sends at the end of the cool-down once the limit is off, and --off clears the escalation", async () => {
    await fault(t, SUPPORT, { fault: "rate-limited" });
    const start = t.sandbox.ctx.clock.now();
    const sent = await send(t, whatsapp);
    await t.advance(3 * MIN); // second cool-down (4 min) runs from +2 min 0.2 s
    const off = await fault(t, SUPPORT, { fault: "rate-limited", off: true });
    expect(off).toMatchObject({ rate_limited: false, rate_limit_level: 0, rate_limited_until: null, status: "online" });
    await expectStatusAt(t, sent.id, 6 * MIN + 199, "queued", start);
    await expectStatusAt(t, sent.id, 6 * MIN + 200, "sent", start);
  });

  it("holds every message of the number for the same cool-down without escalating it", async () => {
    await fault(t, SUPPORT, { fault: "rate-limited" });
    const start = t.sandbox.ctx.clock.now();
    const first = await send(t, whatsapp);
    await t.advance(30 * S);
    const second = await send(t, whatsapp);
    await t.advance(S);
    const faults = (await t.api("GET", `/sandbox/v1/numbers/${encodeURIComponent(SUPPORT)}/faults`)).body.data;
    expect(faults.rate_limit_level).toBe(0);
    await fault(t, SUPPORT, { fault: "rate-limited", off: true });
    await expectStatusAt(t, second.id, 2 * MIN + 199, "queued", start);
    await expectStatusAt(t, second.id, 2 * MIN + 200, "sent", start);
    expect(await statusOf(t, first.id)).toBe("sent");
  });

  it("limits WhatsApp only: iMessage from the same number goes out", async () => {
    await fault(t, SALES, { fault: "rate-limited" });
    const sent = await send(t, { from_handle: SALES });
    await t.advance(200);
    expect(await message(t, sent.id)).toMatchObject({ status: "sent", channel: "imessage" });
  });

  it("fails exactly 24 h after the first attempt while still limited", async () => {
    await fault(t, SUPPORT, { fault: "rate-limited" });
    const start = t.sandbox.ctx.clock.now();
    const sent = await send(t, whatsapp);
    await expectStatusAt(t, sent.id, 24 * HOUR + 199, "queued", start);
    await expectStatusAt(t, sent.id, 24 * HOUR + 200, "failed", start);
    expect((await message(t, sent.id)).error).toMatch(/rate-limiting/);
  });

  it("refuses rate-limited on a number without WhatsApp: 400 invalid_request", async () => {
    const res = await t.api("POST", `/sandbox/v1/numbers/${encodeURIComponent(MAIN)}/faults`, {
      body: { fault: "rate-limited" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
  });
});

describe("permanent errors (spec section 3): WhatsApp session needs re-linking", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("fails a WhatsApp send at its first attempt, with error and message.failed", async () => {
    await fault(t, SALES, { fault: "relink-required" });
    const start = t.sandbox.ctx.clock.now();
    const sent = await send(t, { from_handle: SALES, channel: "whatsapp" });
    await expectStatusAt(t, sent.id, 199, "queued", start);
    await expectStatusAt(t, sent.id, 200, "failed", start);
    const [event] = await events(t, sent.id);
    expect(event).toMatchObject({ type: "message.failed", error: expect.stringContaining("re-link") });
    expect((await t.api("GET", "/v1/numbers")).body.data.find((n: any) => n.handle === SALES).status).toBe(
      "relink_required",
    );
  });

  it("leaves iMessage from the same number alone", async () => {
    await fault(t, SALES, { fault: "relink-required" });
    const sent = await send(t, { from_handle: SALES });
    await t.advance(200);
    expect(await statusOf(t, sent.id)).toBe("sent");
  });

  it("refuses relink-required on a WhatsApp Cloud API number: 400", async () => {
    const res = await t.api("POST", `/sandbox/v1/numbers/${encodeURIComponent(SUPPORT)}/faults`, {
      body: { fault: "relink-required" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Cloud API/);
  });
});

describe("retry (spec 4.3): failed → queued", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("answers 200 with the message queued, error cleared, and sends it after the send latency", async () => {
    await fault(t, MAIN, { fault: "transient", count: 5 });
    const sent = await send(t, {});
    await t.advance(2 * MIN + 200);
    expect(await statusOf(t, sent.id)).toBe("failed");
    const start = t.sandbox.ctx.clock.now();
    const res = await t.api("POST", `/v1/messages/${sent.id}/retry`, { body: {} });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: sent.id, status: "queued", error: null });
    await expectStatusAt(t, sent.id, 199, "queued", start);
    await expectStatusAt(t, sent.id, 200, "sent", start);
    expect(await eventTypes(t, sent.id)).toEqual(["message.failed", "message.sent"]);
  });

  it("starts a fresh count of 5 attempts", async () => {
    await fault(t, MAIN, { fault: "transient", count: 9 });
    const sent = await send(t, {});
    await t.advance(2 * MIN + 200);
    await t.api("POST", `/v1/messages/${sent.id}/retry`);
    const start = t.sandbox.ctx.clock.now();
    // 4 errors left: attempts 1-4 fail, the 5th goes out.
    await expectStatusAt(t, sent.id, 120_200, "sent", start);
  });

  it.each(["queued", "sent"])("refuses a %s message with 409 invalid_state", async (status) => {
    const sent = await send(t, { to: "+14155550171" });
    if (status === "sent") await t.advance(200);
    const res = await t.api("POST", `/v1/messages/${sent.id}/retry`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("invalid_state");
    expect(await statusOf(t, sent.id)).toBe(status);
  });

  it("leaves no stale job behind: a message failed by simulate and retried is sent once", async () => {
    const sent = await send(t, { to: IPHONE });
    await t.api("POST", `/sandbox/v1/messages/${sent.id}/fail`);
    await t.api("POST", `/v1/messages/${sent.id}/retry`);
    await t.advance(3_000);
    expect(await eventTypes(t, sent.id)).toEqual([
      "message.failed",
      "message.sent",
      "message.delivered",
      "message.read",
    ]);
    expect(listJobs(t.sandbox.db)).toEqual([]);
  });
});
