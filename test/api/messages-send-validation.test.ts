import { describe, expect, it } from "vitest";
import { listJobs } from "../../src/store/core/index.js";
import { IPHONE, MAIN, message, resetBeforeEach, send, SUPPORT } from "../helpers/messages.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";

/** Everything a refused send must leave untouched. */
async function snapshot(t: TestSandbox) {
  const messages = (await t.api("GET", "/v1/messages?limit=100")).body.data.length;
  const chats = (await t.api("GET", "/v1/chats?limit=100")).body.data.length;
  return { messages, chats, jobs: listJobs(t.sandbox.db).length };
}

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
