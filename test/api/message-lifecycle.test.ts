import { describe, expect, it } from "vitest";
import {
  ANDROID,
  eventTypes,
  events,
  expectStatusAt,
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

describe("message status (spec section 3): queued → sent → delivered → read", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("is accepted queued with channel null, and leaves the queue after the 200 ms send latency", async () => {
    const start = t.sandbox.ctx.clock.now();
    const sent = await send(t, {});
    expect(sent).toMatchObject({
      status: "queued",
      channel: null,
      direction: "outbound",
      sent_at: null,
      attachments: [],
    });
    await expectStatusAt(t, sent.id, 199, "queued", start);
    await expectStatusAt(t, sent.id, 200, "sent", start);
    expect((await message(t, sent.id)).channel).toBe("imessage");
  });

  it("is delivered 500 ms after sent, and read 2 s after that where read receipts are on", async () => {
    const start = t.sandbox.ctx.clock.now();
    const sent = await send(t, {});
    await expectStatusAt(t, sent.id, 699, "sent", start);
    await expectStatusAt(t, sent.id, 700, "delivered", start);
    await expectStatusAt(t, sent.id, 2_699, "delivered", start);
    await expectStatusAt(t, sent.id, 2_700, "read", start);
    const done = await message(t, sent.id);
    expect(Date.parse(done.read_at) - Date.parse(done.delivered_at)).toBe(2_000);
    expect(Date.parse(done.delivered_at) - Date.parse(done.sent_at)).toBe(500);
  });

  it("fires message.sent, message.delivered, message.read in order, each with message_id and conversation_id", async () => {
    const sent = await send(t, {});
    await t.advance(3_000);
    const payloads = await events(t, sent.id);
    expect(payloads.map((p) => p.type)).toEqual(["message.sent", "message.delivered", "message.read"]);
    for (const payload of payloads) {
      expect(payload).toMatchObject({
        message_id: sent.id,
        conversation_id: sent.conversation_id,
        channel: "imessage",
        from: MAIN,
        to: IPHONE,
      });
    }
    expect(payloads[2]).toMatchObject({ status: "read", read_at: expect.any(String) });
  });

  it("stops at delivered where the contact has read receipts off", async () => {
    const sent = await send(t, { to: MAGIC.noReadReceipts });
    await t.advance(24 * 3_600_000);
    expect(await statusOf(t, sent.id)).toBe("delivered");
    expect(await eventTypes(t, sent.id)).toEqual(["message.sent", "message.delivered"]);
  });

  it("stays sent, never delivered, for an unreachable contact", async () => {
    const sent = await send(t, { to: MAGIC.unreachable });
    await t.advance(24 * 3_600_000);
    const got = await message(t, sent.id);
    expect(got).toMatchObject({ status: "sent", delivered_at: null, error: null });
    expect(await eventTypes(t, sent.id)).toEqual(["message.sent"]);
  });

  it("follows a contact's profile as set at each step", async () => {
    await setContact(t, "+14155550150", { read_receipts: false });
    const sent = await send(t, { to: "+14155550150" });
    await t.advance(700);
    await setContact(t, "+14155550150", { read_receipts: true });
    await t.advance(5_000);
    // Read receipts were off when it was delivered: no read is pending.
    expect(await statusOf(t, sent.id)).toBe("delivered");
  });
});

describe("routing (docs/simulated-world.md): iMessage or SMS per recipient", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it.each([
    ["an iPhone on iMessage", IPHONE, "imessage"],
    ["an unknown number (default profile: iMessage)", "+14155550142", "imessage"],
    ["an iPhone not on iMessage", MAGIC.noIMessage, "sms"],
    ["an iMessage email address", "someone@example.com", "imessage"],
  ])("sends to %s over %s", async (_name, to, channel) => {
    const sent = await send(t, { to });
    await t.advance(200);
    expect(await message(t, sent.id)).toMatchObject({ status: "sent", channel });
  });

  it("switches to SMS when a contact leaves iMessage", async () => {
    await setContact(t, IPHONE, { imessage: false });
    const sent = await send(t, {});
    await t.advance(200);
    expect((await message(t, sent.id)).channel).toBe("sms");
  });

  it("answers availability per profile: iMessage contacts, SMS otherwise", async () => {
    const iphone = await t.api("GET", `/v1/handles/availability?handle=${encodeURIComponent(IPHONE)}`);
    expect(iphone.body.data).toEqual({ handle: IPHONE, imessage: true, channel: "imessage" });
    const android = await t.api("GET", `/v1/handles/availability?handle=${encodeURIComponent(ANDROID)}`);
    expect(android.body.data).toEqual({ handle: ANDROID, imessage: false, channel: "sms" });
    const email = await t.api("GET", "/v1/handles/availability?handle=Someone@Example.com");
    expect(email.body.data).toEqual({ handle: "someone@example.com", imessage: true, channel: "imessage" });
  });

  it.each([
    ["missing", ""],
    ["not a number", "?handle=hello"],
    ["an invalid number", "?handle=%2B15555550100"],
  ])("refuses availability with a handle %s: 400 invalid_request naming handle", async (_name, query) => {
    const res = await t.api("GET", `/v1/handles/availability${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request", message: expect.stringMatching(/^handle: /) });
  });
});

describe("routing: WhatsApp only when asked for, from a number that serves it", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("sends over WhatsApp with channel whatsapp from a WhatsApp number", async () => {
    const sent = await send(t, { from_handle: SUPPORT, channel: "whatsapp" });
    await t.advance(3_000);
    expect(await message(t, sent.id)).toMatchObject({ status: "read", channel: "whatsapp" });
  });

  it("prefers iMessage/SMS on a number that serves both unless channel is whatsapp", async () => {
    const plain = await send(t, { from_handle: SALES });
    const whatsapp = await send(t, { from_handle: SALES, channel: "whatsapp" });
    await t.advance(200);
    expect((await message(t, plain.id)).channel).toBe("imessage");
    expect((await message(t, whatsapp.id)).channel).toBe("whatsapp");
    expect(plain.conversation_id).not.toBe(whatsapp.conversation_id);
  });

  it("fails a WhatsApp send to a contact without WhatsApp, with an error", async () => {
    const sent = await send(t, { from_handle: SUPPORT, channel: "whatsapp", to: MAGIC.noWhatsApp });
    await t.advance(200);
    expect(await message(t, sent.id)).toMatchObject({
      status: "failed",
      channel: null,
      error: expect.stringContaining("not on WhatsApp"),
    });
  });

  it.each([
    [
      "channel whatsapp from a number without WhatsApp",
      { from_handle: MAIN, channel: "whatsapp" },
      /^channel: .*does not serve WhatsApp/,
    ],
    ["no channel from a WhatsApp-only number", { from_handle: SUPPORT }, /^channel: .*serves only WhatsApp/],
    ["channel sms", { channel: "sms" }, /^channel: /],
    ["an email recipient over WhatsApp", { from_handle: SUPPORT, channel: "whatsapp", to: "a@example.com" }, /^to: /],
  ])("refuses %s with 400 invalid_request", async (_name, body, message) => {
    const res = await t.api("POST", "/v1/messages", { body: { to: IPHONE, text: "hi", ...body } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
    expect(res.body.message).toMatch(message);
  });
});

describe("the Android rule (spec section 1): outbound-first to Android is unsupported", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("accepts the send (202), then fails it with an error saying the contact must message first", async () => {
    const sent = await send(t, { to: ANDROID });
    expect(sent.status).toBe("queued");
    await t.advance(200);
    const failed = await message(t, sent.id);
    expect(failed).toMatchObject({
      status: "failed",
      channel: null,
      error: expect.stringContaining("must message first"),
    });
    const [event] = await events(t, sent.id);
    expect(event).toMatchObject({ type: "message.failed", message_id: sent.id, error: failed.error });
  });

  it("applies to the magic Android number too", async () => {
    const sent = await send(t, { to: MAGIC.android });
    await t.advance(200);
    expect(await statusOf(t, sent.id)).toBe("failed");
  });

  it("sends over SMS once the contact has written to that number", async () => {
    await inbound(t, { from: ANDROID, to: MAIN, text: "hi, it's me" });
    const sent = await send(t, { to: ANDROID });
    await t.advance(3_000);
    // Android phones have read receipts on by default: read like any other.
    expect(await message(t, sent.id)).toMatchObject({ status: "read", channel: "sms" });
  });

  it("counts inbound per number: writing to another number does not unlock this one", async () => {
    await inbound(t, { from: ANDROID, to: SALES, text: "hi" });
    const sent = await send(t, { to: ANDROID, from_handle: MAIN });
    await t.advance(200);
    expect(await statusOf(t, sent.id)).toBe("failed");
  });
});
