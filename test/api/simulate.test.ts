import { describe, expect, it } from "vitest";
import {
  ANDROID,
  deliveredIMessage,
  events,
  eventTypes,
  inbound,
  IPHONE,
  MAGIC,
  MAIN,
  message,
  resetBeforeEach,
  SALES,
  send,
  setContact,
  statusOf,
  SUPPORT,
} from "../helpers/messages.js";
import { useSandbox } from "../helpers/sandbox.js";

describe("simulate inbound (docs/control-api.md): a contact writes one-to-one", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("records an iMessage with metadata.sender_handle and fires message.received", async () => {
    const received = await inbound(t, { from: IPHONE, to: MAIN, text: "hey" });
    expect(received).toMatchObject({
      direction: "inbound",
      status: "delivered",
      channel: "imessage",
      text: "hey",
      metadata: { sender_handle: IPHONE },
      attachments: [],
    });
    const [payload] = await events(t, received.id);
    expect(payload).toEqual({
      type: "message.received",
      conversation_id: received.conversation_id,
      message_id: received.id,
      from: IPHONE,
      to: MAIN,
      text: "hey",
      channel: "imessage",
      has_attachments: false,
      created_at: received.created_at,
      metadata: { sender_handle: IPHONE },
    });
  });

  it("has sent_at and delivered_at equal to created_at, also for several in one instant", async () => {
    const received = [];
    for (const text of ["one", "two", "three"]) received.push(await inbound(t, { text }));
    expect(new Set(received.map((m) => m.created_at)).size).toBe(3);
    for (const message of received) {
      expect(message.sent_at).toBe(message.created_at);
      expect(message.delivered_at).toBe(message.created_at);
      const stored = (await t.api("GET", `/v1/messages/${message.id}`)).body.data;
      expect([stored.sent_at, stored.delivered_at]).toEqual([message.created_at, message.created_at]);
    }
  });

  it("arrives over SMS from a contact not on iMessage", async () => {
    const received = await inbound(t, { from: ANDROID });
    expect(received.channel).toBe("sms");
  });

  it("records WhatsApp senders as E.164 in from and as a JID in metadata.sender_jid", async () => {
    const received = await inbound(t, { from: IPHONE, to: SUPPORT });
    expect(received).toMatchObject({ channel: "whatsapp", metadata: { sender_jid: "14155550191@s.whatsapp.net" } });
    const [payload] = await events(t, received.id);
    expect(payload).toMatchObject({
      from: IPHONE,
      to: SUPPORT,
      channel: "whatsapp",
      metadata: { sender_jid: "14155550191@s.whatsapp.net" },
    });
  });

  it("takes an explicit channel, and keeps WhatsApp and iMessage threads apart", async () => {
    const text = await inbound(t, { to: SALES, channel: "sms" });
    const whatsapp = await inbound(t, { to: SALES, channel: "whatsapp" });
    expect([text.channel, whatsapp.channel]).toEqual(["sms", "whatsapp"]);
    expect(text.conversation_id).not.toBe(whatsapp.conversation_id);
  });

  it("lands in the thread an outbound message started", async () => {
    const sent = await send(t, {});
    const received = await inbound(t, {});
    expect(received.conversation_id).toBe(sent.conversation_id);
  });

  it.each([
    [{ to: "+14155550199" }, /^to: /],
    [{ from: "+15555550100" }, /^from: /],
    [{ to: MAIN, channel: "whatsapp" }, /^channel: /],
    [{ from: ANDROID, to: SALES, channel: "whatsapp" }, /not on WhatsApp/],
    [{ from: ANDROID, channel: "imessage" }, /not registered with iMessage/],
    [{ text: "" }, /^text: /],
    [{ channel: "telegram" }, /^channel: /],
  ])("refuses %j with 400 invalid_request", async (body, text) => {
    const res = await t.api("POST", "/sandbox/v1/simulate/inbound", {
      body: { from: IPHONE, to: MAIN, text: "x", ...body },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request", message: expect.stringMatching(text) });
    expect((await t.api("GET", "/v1/messages")).body.data).toEqual([]);
  });
});

describe("simulate delivered | read | fail (docs/spec-decisions.md): forward only, every event in order", () => {
  const t = useSandbox();
  resetBeforeEach(t);
  const force = (id: string, what: string, body?: unknown) =>
    t.api("POST", `/sandbox/v1/messages/${id}/${what}`, { body });

  it("moves a queued message to delivered, firing sent then delivered, with the channel resolved", async () => {
    await setContact(t, IPHONE, { read_receipts: false });
    const sent = await send(t, {});
    const res = await force(sent.id, "delivered");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: "delivered",
      channel: "imessage",
      sent_at: expect.any(String),
      delivered_at: expect.any(String),
    });
    expect(await eventTypes(t, sent.id)).toEqual(["message.sent", "message.delivered"]);
    // The old queue jobs are stale: nothing fires twice.
    await t.advance(10_000);
    expect(await eventTypes(t, sent.id)).toEqual(["message.sent", "message.delivered"]);
  });

  it("moves a queued message to read through sent and delivered", async () => {
    const sent = await send(t, {});
    expect((await force(sent.id, "read")).body.data.status).toBe("read");
    expect(await eventTypes(t, sent.id)).toEqual(["message.sent", "message.delivered", "message.read"]);
  });

  it("delivers to an unreachable contact and to an Android contact when forced", async () => {
    const unreachable = await send(t, { to: MAGIC.unreachable });
    await t.advance(200);
    expect((await force(unreachable.id, "delivered")).body.data.status).toBe("delivered");
    const android = await send(t, { to: ANDROID });
    expect((await force(android.id, "delivered")).body.data).toMatchObject({ status: "delivered", channel: "sms" });
  });

  it("lets the lifecycle go on after the forced state: read 2 s after a forced delivery", async () => {
    const sent = await send(t, {});
    await force(sent.id, "delivered");
    await t.advance(2_000);
    expect(await statusOf(t, sent.id)).toBe("read");
  });

  it.each([
    ["delivered", "delivered"],
    ["delivered", "read"],
    ["read", "read"],
  ])("refuses %s on a %s message (staying or backwards) with 409 invalid_state", async (what, reached) => {
    const sent = await send(t, {});
    await force(sent.id, reached);
    const res = await force(sent.id, what);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("invalid_state");
    expect(await statusOf(t, sent.id)).toBe(reached);
  });

  it("refuses to move a failed or unsent message with 409", async () => {
    const failed = await send(t, { to: ANDROID });
    await t.advance(200);
    expect((await force(failed.id, "delivered")).status).toBe(409);
    const delivered = await deliveredIMessage(t);
    await t.api("POST", `/v1/messages/${delivered.id}/unsend`);
    await t.advance(200);
    expect((await force(delivered.id, "read")).status).toBe(409);
  });

  it("fails a queued message with the given error and message.failed; the queue then leaves it alone", async () => {
    const sent = await send(t, {});
    const res = await force(sent.id, "fail", { error: "carrier said no" });
    expect(res.body.data).toMatchObject({ status: "failed", error: "carrier said no", channel: null });
    await t.advance(10_000);
    expect(await eventTypes(t, sent.id)).toEqual(["message.failed"]);
    const [payload] = await events(t, sent.id);
    expect(payload).toMatchObject({ error: "carrier said no", status: "failed" });
  });

  it("fails with a default error, and refuses a delivered message with 409", async () => {
    const sent = await send(t, {});
    expect((await force(sent.id, "fail")).body.data.error).toMatch(/Simulated failure/);
    const delivered = await deliveredIMessage(t);
    expect((await force(delivered.id, "fail")).status).toBe(409);
  });

  it("refuses inbound messages with 409 and unknown ids with 404", async () => {
    const received = await inbound(t, {});
    expect((await force(received.id, "read")).status).toBe(409);
    expect((await force("7d0c8a3e-1111-4111-8111-111111111111", "read")).status).toBe(404);
  });
});
