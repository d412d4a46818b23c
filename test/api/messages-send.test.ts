import { describe, expect, it } from "vitest";
import { inbound, IPHONE, MAIN, message, resetBeforeEach, SALES, send } from "../helpers/messages.js";
import { KEY, useSandbox } from "../helpers/sandbox.js";

const BETA_KEY = "sk_test_beta_0000000000000000";
const twoAccounts = {
  accounts: [
    {
      name: "Acme",
      api_key: KEY,
      numbers: [
        { handle: "+14155550101", channels: ["imessage", "sms"] },
        { handle: "+14155550102", channels: ["whatsapp"], whatsapp_api: "cloud" },
        { handle: "+14155550103", channels: ["imessage", "sms", "whatsapp"] },
      ],
    },
    { name: "Beta", api_key: BETA_KEY, numbers: [{ handle: "+14155550111", channels: ["imessage", "sms"] }] },
  ],
};

describe("POST /v1/messages (spec 4.3): accepted", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("answers 202 with the Message: queued, channel null, every field of spec section 2", async () => {
    const res = await t.api("POST", "/v1/messages", {
      body: { to: IPHONE, from_handle: MAIN, text: "hello", effect: "slam" },
    });
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      conversation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      direction: "outbound",
      status: "queued",
      channel: null,
      text: "hello",
      effect: "slam",
      reply_to: null,
      error: null,
      metadata: null,
      attachments: [],
      sent_at: null,
      delivered_at: null,
      read_at: null,
      edited_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it("normalizes the recipient and keeps one thread per number and contact", async () => {
    const first = await send(t, { to: "+1 (415) 555-0191" });
    const second = await send(t, { to: IPHONE });
    expect(second.conversation_id).toBe(first.conversation_id);
    const chat = (await t.api("GET", `/v1/chats/${first.conversation_id}`)).body.data;
    expect(chat).toMatchObject({ from_handle: MAIN, remote_handle: IPHONE, is_group: false, title: null });
  });

  it("sends into an existing thread with conversation_id, over that thread's service", async () => {
    const opener = await send(t, { from_handle: SALES, channel: "whatsapp" });
    const followUp = (
      await t.api("POST", "/v1/messages", { body: { conversation_id: opener.conversation_id, text: "more" } })
    ).body.data;
    expect(followUp.conversation_id).toBe(opener.conversation_id);
    await t.advance(200);
    expect((await message(t, followUp.id)).channel).toBe("whatsapp");
  });

  it("threads a reply with reply_to one of the account's messages in the thread", async () => {
    const received = await inbound(t, {});
    const reply = await send(t, { reply_to: received.id });
    expect(reply).toMatchObject({ reply_to: received.id, conversation_id: received.conversation_id });
  });

  it("delivers a one-to-one send to another of the account's numbers like one to a contact, and records no inbound copy (spec-decisions)", async () => {
    const sent = await send(t, { from_handle: MAIN, to: SALES });
    await t.advance(60_000);
    expect((await message(t, sent.id)).status).toBe("read");
    const all = (await t.api("GET", "/v1/messages?limit=100")).body.data;
    expect(all.map((m: { id: string; direction: string }) => [m.id, m.direction])).toEqual([[sent.id, "outbound"]]);
  });

  it("accepts null for optional fields", async () => {
    const sent = await send(t, {
      effect: null,
      reply_to: null,
      channel: null,
      voice_memo: null,
      media_quality: null,
      attachment_ids: null,
    });
    expect(sent.status).toBe("queued");
  });
});

describe("POST /v1/messages: accounts see only their own (docs/messages.md)", () => {
  const t = useSandbox({ fixture: twoAccounts });

  it("refuses another account's number as from_handle with invalid_from_handle", async () => {
    const res = await t.api("POST", "/v1/messages", { body: { to: IPHONE, from_handle: "+14155550111", text: "x" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_from_handle");
  });

  it("refuses another account's conversation_id and reply_to with invalid_request, and 404s its message", async () => {
    const theirs = await t.api("POST", "/v1/messages", {
      key: BETA_KEY,
      body: { to: IPHONE, from_handle: "+14155550111", text: "x" },
    });
    expect(theirs.status).toBe(202);
    const conversation = await t.api("POST", "/v1/messages", {
      body: { conversation_id: theirs.body.data.conversation_id, text: "x" },
    });
    expect(conversation.body).toMatchObject({
      error: "invalid_request",
      message: expect.stringMatching(/^conversation_id: /),
    });
    const reply = await t.api("POST", "/v1/messages", {
      body: { to: IPHONE, from_handle: MAIN, text: "x", reply_to: theirs.body.data.id },
    });
    expect(reply.body).toMatchObject({ error: "invalid_request", message: expect.stringMatching(/^reply_to: /) });
    expect((await t.api("GET", `/v1/messages/${theirs.body.data.id}`)).status).toBe(404);
    expect((await t.api("GET", `/v1/chats/${theirs.body.data.conversation_id}`)).status).toBe(404);
  });

  it("scopes idempotency keys per account", async () => {
    const headers = { "idempotency-key": "shared-key" };
    const mine = await t.api("POST", "/v1/messages", { body: { to: IPHONE, from_handle: MAIN, text: "x" }, headers });
    const theirs = await t.api("POST", "/v1/messages", {
      key: BETA_KEY,
      body: { to: IPHONE, from_handle: "+14155550111", text: "x" },
      headers,
    });
    expect([mine.status, theirs.status]).toEqual([202, 202]);
    expect(mine.body.data.id).not.toBe(theirs.body.data.id);
  });
});
