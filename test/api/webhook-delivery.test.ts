import { beforeEach, describe, expect, it, vi } from "vitest";
import { verifyWebhook } from "../../src/lib/webhook-signature.js";
import { listJobs } from "../../src/store/core/index.js";
import { emitTestEvent } from "../helpers/events.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { startReceiver, useReceiver } from "../helpers/webhook-receiver.js";

async function createHook(t: TestSandbox, url: string, body: Record<string, unknown> = {}) {
  const res = await t.api("POST", "/v1/webhooks", { body: { url, ...body } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string };
}

async function deliveries(t: TestSandbox, query = "") {
  const res = await t.api("GET", `/sandbox/v1/deliveries${query}`);
  expect(res.status).toBe(200);
  return res.body.data as {
    id: string;
    webhook_id: string;
    event_id: string;
    event_type: string;
    status: string;
    attempts: {
      n: number;
      at: string;
      status_code: number | null;
      error: string | null;
      duration_ms: number;
      signature: string | null;
    }[];
    next_attempt_at: string | null;
  }[];
}

const attemptJobs = (t: TestSandbox) => listJobs(t.sandbox.db).filter((job) => job.kind === "webhook.attempt");

describe("webhook delivery (spec section 6) to a real receiver", () => {
  const t = useSandbox();
  const receiver = useReceiver();
  beforeEach(async () => {
    await t.sandbox.control.reset();
    receiver.requests.length = 0;
    receiver.maxConcurrent = 0;
    receiver.reply(() => ({ status: 204 }));
  });

  describe("the request", () => {
    it("POSTs the raw event payload, not enveloped, signed, with the event id and attempt number", async () => {
      const hook = await createHook(t, receiver.url);
      const event = emitTestEvent(t.sandbox.ctx, "message.read", {
        conversation_id: "00000000-0000-4000-8000-0000000000c1",
      });
      await t.advance(0);
      expect(receiver.requests).toHaveLength(1);
      const [request] = receiver.requests;
      expect(request?.method).toBe("POST");
      expect(request?.path).toBe("/hook");
      expect(request?.body).toBe(JSON.stringify(event.payload));
      expect(JSON.parse(request?.body ?? "")).toEqual(event.payload);
      expect(event.payload).toMatchObject({
        type: "message.read",
        conversation_id: "00000000-0000-4000-8000-0000000000c1",
      });
      expect(request?.headers["content-type"]).toBe("application/json");
      expect(request?.headers["user-agent"]).toMatch(/^msgctl/);
      expect(request?.headers["x-msgctl-event-id"]).toBe(event.id);
      expect(request?.headers["x-msgctl-attempt"]).toBe("1");
      const header = String(request?.headers["x-service-signature"]);
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      // t is wall-clock seconds even though the sandbox clock is manual.
      const t0 = Number(/t=(\d+)/.exec(header)?.[1]);
      expect(Math.abs(t0 - Date.now() / 1000)).toBeLessThan(5);
      expect(verifyWebhook(request?.body ?? "", header, hook.secret)).toEqual({ ok: true, timestamp: t0 });
      expect(verifyWebhook(request?.body ?? "", header, "whsec_wrong")).toMatchObject({
        ok: false,
        reason: "signature_mismatch",
      });

      const [delivery] = await deliveries(t);
      expect(delivery).toMatchObject({
        webhook_id: hook.id,
        event_id: event.id,
        event_type: "message.read",
        status: "succeeded",
        next_attempt_at: null,
      });
      expect(delivery?.attempts).toEqual([
        {
          n: 1,
          at: new Date(t.sandbox.ctx.clock.now()).toISOString(),
          status_code: 204,
          error: null,
          duration_ms: expect.any(Number),
          resend: false,
          signature: header,
        },
      ]);
    });

    it("the first attempt runs without an advance: work due now runs at once", async () => {
      await createHook(t, receiver.url);
      emitTestEvent(t.sandbox.ctx);
      await vi.waitFor(() => expect(receiver.requests).toHaveLength(1));
    });

    it("delivers to every enabled endpoint subscribed to the type, and only those", async () => {
      const all = await createHook(t, receiver.url);
      const reads = await createHook(t, `${receiver.url}?only=read`, { events: ["message.read"] });
      emitTestEvent(t.sandbox.ctx, "message.sent");
      emitTestEvent(t.sandbox.ctx, "message.read");
      await t.advance(0);
      expect(receiver.requests.map((r) => [r.path, JSON.parse(r.body).type])).toEqual([
        ["/hook", "message.sent"],
        ["/hook", "message.read"],
        ["/hook?only=read", "message.read"],
      ]);
      const byHook = (id: string) => deliveries(t, `?webhook_id=${id}`);
      expect((await byHook(all.id)).map((d) => d.event_type)).toEqual(["message.read", "message.sent"]);
      expect((await byHook(reads.id)).map((d) => d.event_type)).toEqual(["message.read"]);
    });

    it("does not follow redirects: a 3xx is a failed attempt", async () => {
      receiver.reply(() => ({ status: 302, headers: { location: "http://127.0.0.1:1/elsewhere" } }));
      await createHook(t, receiver.url);
      emitTestEvent(t.sandbox.ctx);
      await t.advance(0);
      expect(receiver.requests).toHaveLength(1);
      const [delivery] = await deliveries(t);
      expect(delivery?.status).toBe("pending");
      expect(delivery?.attempts[0]).toMatchObject({
        status_code: 302,
        error: "redirect to http://127.0.0.1:1/elsewhere not followed",
      });
    });

    it("a refused connection is a failed attempt with the reason", async () => {
      const closed = await startReceiver();
      const url = closed.url;
      await closed.close();
      await createHook(t, url);
      emitTestEvent(t.sandbox.ctx);
      await t.advance(0);
      const [delivery] = await deliveries(t);
      expect(delivery?.attempts[0]).toMatchObject({ status_code: null, error: "connection failed (ECONNREFUSED)" });
      expect(delivery?.status).toBe("pending");
    });
  });

  describe("the retry ladder (delivery rule 2)", () => {
    // The spec's literal waits, not the source's own constant: a wrong ladder must fail here.
    const S = 1_000;
    const MIN = 60 * S;
    const H = 60 * MIN;
    const SPEC_WAITS = [5 * S, 1 * MIN, 10 * MIN, 1 * H, 4 * H, 8 * H, 12 * H];

    it("retries after 5 s, 1 m, 10 m, 1 h, 4 h, 8 h, 12 h exactly, 8 attempts, then failed", async () => {
      receiver.reply(() => ({ status: 500 }));
      await createHook(t, receiver.url);
      const event = emitTestEvent(t.sandbox.ctx);
      await t.advance(0);
      expect(receiver.requests).toHaveLength(1);
      for (const [i, wait] of SPEC_WAITS.entries()) {
        await t.advance(wait - 1);
        expect(receiver.requests).toHaveLength(i + 1);
        await t.advance(1);
        expect(receiver.requests).toHaveLength(i + 2);
      }
      expect(receiver.requests.map((r) => r.headers["x-msgctl-attempt"])).toEqual([
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
      ]);
      expect(new Set(receiver.requests.map((r) => r.headers["x-msgctl-event-id"]))).toEqual(new Set([event.id]));
      expect(new Set(receiver.requests.map((r) => r.body))).toEqual(new Set([JSON.stringify(event.payload)]));

      const [delivery] = await deliveries(t);
      expect(delivery?.status).toBe("failed");
      expect(delivery?.next_attempt_at).toBeNull();
      const times = delivery?.attempts.map((a) => Date.parse(a.at)) ?? [];
      expect(times.slice(1).map((at, i) => at - (times[i] ?? 0))).toEqual(SPEC_WAITS);
      expect(delivery?.attempts.every((a) => a.status_code === 500 && a.error === "receiver answered 500")).toBe(true);
      expect(attemptJobs(t)).toEqual([]);

      await t.advance(48 * 3_600_000);
      expect(receiver.requests).toHaveLength(8);
    });

    it("shows the next attempt's virtual time while pending", async () => {
      receiver.reply(() => ({ status: 503 }));
      await createHook(t, receiver.url);
      emitTestEvent(t.sandbox.ctx);
      await t.advance(0);
      const [delivery] = await deliveries(t);
      expect(Date.parse(delivery?.next_attempt_at ?? "")).toBe(Date.parse(delivery?.attempts[0]?.at ?? "") + 5_000);
    });

    it("success on a later attempt stops the retries", async () => {
      receiver.reply((_request, n) => ({ status: n < 3 ? 500 : 200 }));
      await createHook(t, receiver.url);
      emitTestEvent(t.sandbox.ctx);
      await t.advance(0);
      await t.advance(5_000 + 60_000);
      expect(receiver.requests).toHaveLength(3);
      const [delivery] = await deliveries(t);
      expect(delivery?.status).toBe("succeeded");
      expect(delivery?.attempts.map((a) => a.status_code)).toEqual([500, 500, 200]);
      await t.advance(48 * 3_600_000);
      expect(receiver.requests).toHaveLength(3);
      expect(attemptJobs(t)).toEqual([]);
    });

    it("a rotation mid-ladder signs the next attempt with the new secret", async () => {
      receiver.reply(() => ({ status: 500 }));
      const hook = await createHook(t, receiver.url, { secret: "first-secret-0123456789" });
      emitTestEvent(t.sandbox.ctx);
      await t.advance(0);
      const rotated = (await t.api("POST", `/v1/webhooks/${hook.id}/rotate-secret`)).body.data.secret as string;
      await t.advance(5_000);
      const [first, second] = receiver.requests;
      const signature = (r: typeof first) => String(r?.headers["x-service-signature"]);
      expect(verifyWebhook(first?.body ?? "", signature(first), "first-secret-0123456789").ok).toBe(true);
      expect(verifyWebhook(second?.body ?? "", signature(second), rotated).ok).toBe(true);
      expect(verifyWebhook(second?.body ?? "", signature(second), "first-secret-0123456789").ok).toBe(false);
      // PATCH with a secret takes effect the same way.
      await t.api("PATCH", `/v1/webhooks/${hook.id}`, { body: { secret: "patched-secret-0123456789" } });
      await t.advance(60_000);
      expect(
        verifyWebhook(receiver.requests[2]?.body ?? "", signature(receiver.requests[2]), "patched-secret-0123456789")
          .ok,
      ).toBe(true);
    });
  });

  describe("delete and pause", () => {
    it("DELETE abandons pending retries: no job fires, nothing more is posted, deliveries stay listed", async () => {
      receiver.reply(() => ({ status: 500 }));
      const hook = await createHook(t, receiver.url);
      emitTestEvent(t.sandbox.ctx);
      await t.advance(0);
      expect(attemptJobs(t)).toHaveLength(1);
      await t.api("DELETE", `/v1/webhooks/${hook.id}`);
      expect(attemptJobs(t)).toEqual([]);
      await t.advance(48 * 3_600_000);
      expect(receiver.requests).toHaveLength(1);
      const [delivery] = await deliveries(t, `?webhook_id=${hook.id}`);
      expect(delivery).toMatchObject({ status: "abandoned", next_attempt_at: null });
      expect(delivery?.attempts).toHaveLength(1);
      // A deleted endpoint gets nothing new.
      emitTestEvent(t.sandbox.ctx);
      await t.advance(0);
      expect(await deliveries(t)).toHaveLength(1);
    });

    it("a paused endpoint gets no deliveries for events emitted while paused; re-enabled it gets later ones", async () => {
      const hook = await createHook(t, receiver.url);
      await t.api("PATCH", `/v1/webhooks/${hook.id}`, { body: { enabled: false } });
      emitTestEvent(t.sandbox.ctx, "message.sent", { text: "while paused" });
      await t.advance(60_000);
      expect(receiver.requests).toHaveLength(0);
      expect(await deliveries(t)).toEqual([]);
      await t.api("PATCH", `/v1/webhooks/${hook.id}`, { body: { enabled: true } });
      await t.advance(60_000);
      expect(receiver.requests).toHaveLength(0);
      const later = emitTestEvent(t.sandbox.ctx, "message.sent", { text: "after resume" });
      await t.advance(0);
      expect(receiver.requests.map((r) => r.body)).toEqual([JSON.stringify(later.payload)]);
    });

    it("pausing abandons the endpoint's pending retries", async () => {
      receiver.reply(() => ({ status: 500 }));
      const hook = await createHook(t, receiver.url);
      emitTestEvent(t.sandbox.ctx);
      await t.advance(0);
      await t.api("PATCH", `/v1/webhooks/${hook.id}`, { body: { enabled: false } });
      await t.advance(3_600_000);
      expect(receiver.requests).toHaveLength(1);
      expect((await deliveries(t))[0]?.status).toBe("abandoned");
      expect(attemptJobs(t)).toEqual([]);
    });
  });

  describe("delivery order (docs/webhooks.md)", () => {
    it("first attempts to one endpoint go one at a time, in emission order", async () => {
      receiver.reply(() => ({ status: 200, delayMs: 15 }));
      await createHook(t, receiver.url);
      const events = Array.from({ length: 6 }, (_, i) => emitTestEvent(t.sandbox.ctx, "message.sent", { n: i }));
      // Let the tick loop run them (no advance): the lane keeps them sequential.
      await vi.waitFor(() => expect(receiver.requests).toHaveLength(6));
      expect(receiver.requests.map((r) => r.headers["x-msgctl-event-id"])).toEqual(events.map((e) => e.id));
      expect(receiver.maxConcurrent).toBe(1);
    });

    it("a retrying delivery never holds back later events", async () => {
      receiver.reply((request) => ({ status: JSON.parse(request.body).n === 0 ? 500 : 200 }));
      await createHook(t, receiver.url);
      emitTestEvent(t.sandbox.ctx, "message.sent", { n: 0 });
      await t.advance(0);
      emitTestEvent(t.sandbox.ctx, "message.sent", { n: 1 });
      await t.advance(1_000);
      expect(receiver.requests.map((r) => JSON.parse(r.body).n)).toEqual([0, 1]);
      await t.advance(4_000);
      expect(receiver.requests.map((r) => JSON.parse(r.body).n)).toEqual([0, 1, 0]);
    });
  });
});

describe("the acknowledgement window (delivery rule 1)", () => {
  const t = useSandbox({ settings: { webhookTimeoutMs: 300 } });
  const receiver = useReceiver();

  it("an answer that does not come within the window is a failed attempt, retried after 5 s", async () => {
    receiver.reply((_request, n) => (n === 1 ? "hang" : { status: 200 }));
    await createHook(t, receiver.url);
    emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    const [first] = await deliveries(t);
    expect(first?.status).toBe("pending");
    expect(first?.attempts[0]).toMatchObject({ n: 1, status_code: null, error: "no response within 300 ms" });
    expect(first?.attempts[0]?.duration_ms).toBeGreaterThanOrEqual(250);
    await t.advance(5_000);
    const [second] = await deliveries(t);
    expect(second?.status).toBe("succeeded");
    expect(second?.attempts.map((a) => a.status_code)).toEqual([null, 200]);
  });
});
