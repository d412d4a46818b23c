import { describe, expect, it } from "vitest";
import { verifyWebhook } from "../../src/lib/webhook-signature.js";
import { listJobs } from "../../src/store/core/index.js";
import { emitTestEvent } from "../helpers/events.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { createHook, deliveries, useDeliverySandbox } from "../helpers/webhook-deliveries.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

const attemptJobs = (t: TestSandbox) => listJobs(t.sandbox.db).filter((job) => job.kind === "webhook.attempt");

describe("webhook delivery (spec section 6) to a real receiver", () => {
  const { t, receiver } = useDeliverySandbox();

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
