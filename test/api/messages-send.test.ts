import { describe, expect, it } from "vitest";
import { listJobs } from "../../src/store/core/index.js";
import {
  eventTypes,
  inbound,
  IPHONE,
  MAIN,
  message,
  resetBeforeEach,
  SALES,
  send,
  SUPPORT,
} from "../helpers/messages.js";
import { KEY, useSandbox, type TestSandbox } from "../helpers/sandbox.js";

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

/** Everything a refused send must leave untouched. */
async function snapshot(t: TestSandbox) {
  const messages = (await t.api("GET", "/v1/messages?limit=100")).body.data.length;
  const chats = (await t.api("GET", "/v1/chats?limit=100")).body.data.length;
  return { messages, chats, jobs: listJobs(t.sandbox.db).length };
}

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

describe("POST /v1/messages: refused input (docs/messages.md), changing nothing", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  const cases: [string, unknown, string, RegExp][] = [
    [
      "conversation_id with to",
      { conversation_id: "7d0c8a3e-1111-4111-8111-111111111111", to: IPHONE, text: "x" },
      "invalid_request",
      /^conversation_id: /,
    ],
    [
      "conversation_id with from_handle",
      { conversation_id: "7d0c8a3e-1111-4111-8111-111111111111", from_handle: MAIN, text: "x" },
      "invalid_request",
      /^conversation_id: /,
    ],
    ["neither to nor conversation_id", { from_handle: MAIN, text: "x" }, "invalid_request", /^to: /],
    ["to without from_handle", { to: IPHONE, text: "x" }, "invalid_request", /^from_handle: /],
    ["no text and no attachments", { to: IPHONE, from_handle: MAIN }, "invalid_request", /^text: /],
    ["empty text", { to: IPHONE, from_handle: MAIN, text: "" }, "invalid_request", /^text: /],
    ["text not a string", { to: IPHONE, from_handle: MAIN, text: 5 }, "invalid_request", /^text: /],
    ["an invalid number (+1 555…)", { to: "+15555550100", from_handle: MAIN, text: "x" }, "invalid_request", /^to: /],
    [
      "a number with text after it",
      { to: "+14155550191;foo", from_handle: MAIN, text: "x" },
      "invalid_request",
      /^to: /,
    ],
    [
      "a number with an extension",
      { to: "+1 415 555 0191 ext. 7", from_handle: MAIN, text: "x" },
      "invalid_request",
      /^to: /,
    ],
    ["to not a string", { to: 14155550191, from_handle: MAIN, text: "x" }, "invalid_request", /^to: /],
    [
      "a from_handle not the account's",
      { to: IPHONE, from_handle: "+14155550199", text: "x" },
      "invalid_from_handle",
      /^from_handle: /,
    ],
    [
      "a from_handle that is no number",
      { to: IPHONE, from_handle: "main", text: "x" },
      "invalid_from_handle",
      /^from_handle: /,
    ],
    ["a from_handle of another type", { to: IPHONE, from_handle: 5, text: "x" }, "invalid_request", /^from_handle: /],
    [
      "a malformed conversation_id",
      { conversation_id: "nope", text: "x" },
      "invalid_request",
      /^conversation_id: must be a UUID/,
    ],
    [
      "an unknown conversation_id",
      { conversation_id: "7d0c8a3e-1111-4111-8111-111111111111", text: "x" },
      "invalid_request",
      /^conversation_id: no conversation/,
    ],
    [
      "a malformed reply_to",
      { to: IPHONE, from_handle: MAIN, text: "x", reply_to: "nope" },
      "invalid_request",
      /^reply_to: /,
    ],
    [
      "an unknown reply_to",
      { to: IPHONE, from_handle: MAIN, text: "x", reply_to: "7d0c8a3e-1111-4111-8111-111111111111" },
      "invalid_request",
      /^reply_to: no message/,
    ],
    [
      "an unknown attachment id",
      { to: IPHONE, from_handle: MAIN, attachment_ids: ["7d0c8a3e-1111-4111-8111-111111111111"] },
      "invalid_attachments",
      /^attachment_ids: /,
    ],
    [
      "a malformed attachment id",
      { to: IPHONE, from_handle: MAIN, attachment_ids: ["nope"] },
      "invalid_request",
      /^attachment_ids\.0: /,
    ],
    [
      "11 attachment ids",
      {
        to: IPHONE,
        from_handle: MAIN,
        attachment_ids: Array.from(
          { length: 11 },
          (_, i) => `7d0c8a3e-1111-4111-8111-1111111111${String(i).padStart(2, "0")}`,
        ),
      },
      "invalid_request",
      /^attachment_ids: /,
    ],
    [
      "a bad media_quality",
      { to: IPHONE, from_handle: MAIN, text: "x", media_quality: "best" },
      "invalid_request",
      /^media_quality: /,
    ],
    [
      "voice_memo not a boolean",
      { to: IPHONE, from_handle: MAIN, text: "x", voice_memo: "yes" },
      "invalid_request",
      /^voice_memo: /,
    ],
    [
      "an effect on WhatsApp",
      { to: IPHONE, from_handle: SUPPORT, channel: "whatsapp", text: "x", effect: "slam" },
      "invalid_request",
      /^effect: /,
    ],
    ["an unknown field", { to: IPHONE, from_handle: MAIN, text: "x", priority: "high" }, "invalid_request", /priority/],
    ["a JSON array", [1, 2], "invalid_request", /body/],
  ];

  it.each(cases)("refuses %s", async (_name, body, code, messageMatch) => {
    const before = await snapshot(t);
    const res = await t.api("POST", "/v1/messages", { body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: code,
      message: expect.stringMatching(messageMatch),
      request_id: expect.stringMatching(/^req_/),
    });
    expect(await snapshot(t)).toEqual(before);
  });

  it("refuses a reply_to in another thread", async () => {
    const elsewhere = await send(t, { to: "+14155550150" });
    const res = await t.api("POST", "/v1/messages", {
      body: { to: IPHONE, from_handle: MAIN, text: "x", reply_to: elsewhere.id },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^reply_to: .*another conversation/);
    // The refused send created no thread with IPHONE.
    expect((await t.api("GET", "/v1/chats")).body.data).toHaveLength(1);
  });

  it.each([
    ["no body", undefined, 400],
    ["malformed JSON", "{to:", 400],
  ])("refuses %s with %i", async (_name, body, status) => {
    const res = await t.api("POST", "/v1/messages", { body });
    expect(res.status).toBe(status);
    expect(res.body.error).toBe("invalid_request");
  });

  it("refuses an Idempotency-Key over 255 characters", async () => {
    const res = await t.api("POST", "/v1/messages", {
      body: { to: IPHONE, from_handle: MAIN, text: "x" },
      headers: { "idempotency-key": "k".repeat(256) },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Idempotency-Key: /);
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
