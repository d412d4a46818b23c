import { describe, expect, it } from "vitest";
import { listJobs } from "../../src/store/core/index.js";
import { eventTypes, IPHONE, MAIN, message, resetBeforeEach, send } from "../helpers/messages.js";
import { useSandbox } from "../helpers/sandbox.js";

describe("POST /v1/messages: Idempotency-Key (spec 4.3)", () => {
  const t = useSandbox();
  resetBeforeEach(t);
  const body = { to: IPHONE, from_handle: MAIN, text: "once" };

  it("answers 202 first, then 200 with the original message, and sends nothing again", async () => {
    const headers = { "idempotency-key": "order-42" };
    const first = await t.api("POST", "/v1/messages", { body, headers });
    expect(first.status).toBe(202);
    await t.advance(700);
    const replay = await t.api("POST", "/v1/messages", { body, headers });
    expect(replay.status).toBe(200);
    // The original message, as it is now.
    expect(replay.body.data).toMatchObject({ id: first.body.data.id, status: "delivered" });
    await t.advance(10_000);
    expect(await eventTypes(t, first.body.data.id)).toEqual(["message.sent", "message.delivered", "message.read"]);
    expect((await t.api("GET", "/v1/messages")).body.data).toHaveLength(1);
  });

  it("returns the original even when the replay's body differs", async () => {
    const headers = { "idempotency-key": "k-2" };
    const first = await t.api("POST", "/v1/messages", { body, headers });
    const replay = await t.api("POST", "/v1/messages", { body: { ...body, text: "different" }, headers });
    expect(replay.status).toBe(200);
    expect(replay.body.data).toMatchObject({ id: first.body.data.id, text: "once" });
  });

  it("creates one message for 20 concurrent identical requests", async () => {
    const headers = { "idempotency-key": "burst" };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.api("POST", "/v1/messages", { body, headers })),
    );
    const ids = new Set(answers.map((answer) => answer.body.data.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((answer) => answer.status === 202)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(19);
    expect((await t.api("GET", "/v1/messages")).body.data).toHaveLength(1);
    expect(listJobs(t.sandbox.db)).toHaveLength(1);
  });

  it("treats different keys as different sends", async () => {
    const a = await t.api("POST", "/v1/messages", { body, headers: { "idempotency-key": "a" } });
    const b = await t.api("POST", "/v1/messages", { body, headers: { "idempotency-key": "b" } });
    expect(a.body.data.id).not.toBe(b.body.data.id);
  });
});

describe("POST /v1/messages: idempotency keys are scoped per endpoint (docs/messages.md)", () => {
  const t = useSandbox({ resolveHost: async () => ["93.184.216.34"] });

  it("lets the same key create a webhook and send a message", async () => {
    const headers = { "idempotency-key": "same-key" };
    const webhook = await t.api("POST", "/v1/webhooks", { body: { url: "https://example.com/hooks" }, headers });
    expect(webhook.status).toBe(201);
    const sent = await t.api("POST", "/v1/messages", { body: { to: IPHONE, from_handle: MAIN, text: "x" }, headers });
    expect(sent.status).toBe(202);
    expect(sent.body.data.id).not.toBe(webhook.body.data.id);
  });
});

for (const socket of [false, true]) {
  describe(`POST /v1/messages ${socket ? "over a socket" : "in-process"}: 20 concurrent identical requests`, () => {
    const t = useSandbox({ socket });

    it("make one message", async () => {
      const headers = { "idempotency-key": `burst-${socket}` };
      const body = { to: IPHONE, from_handle: MAIN, text: "burst" };
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => t.api("POST", "/v1/messages", { body, headers })),
      );
      expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(1);
      expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(19).fill(200), 202]);
    });
  });
}
