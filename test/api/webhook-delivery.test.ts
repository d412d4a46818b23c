import { describe, expect, it, vi } from "vitest";
import { verifyWebhook } from "../../src/lib/webhook-signature.js";
import { emitTestEvent } from "../helpers/events.js";

import { createHook, deliveries, useDeliverySandbox } from "../helpers/webhook-deliveries.js";
import { startReceiver } from "../helpers/webhook-receiver.js";

describe("webhook delivery (spec section 6) to a real receiver", () => {
  const { t, receiver } = useDeliverySandbox();

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
