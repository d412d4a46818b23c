import { describe, expect, it } from "vitest";
import { upload, wavBytes } from "../helpers/attachments.js";
import { IPHONE, MAIN, message, resetBeforeEach, send } from "../helpers/messages.js";
import { useSandbox } from "../helpers/sandbox.js";

const BETA_KEY = "sk_test_beta_0000000000000000";
const twoAccounts = {
  accounts: [
    {
      name: "Acme",
      api_key: "sk_test_acme_0000000000000000",
      numbers: [{ handle: MAIN, channels: ["imessage", "sms"] }],
    },
    { name: "Beta", api_key: BETA_KEY, numbers: [{ handle: "+14155550111", channels: ["imessage", "sms"] }] },
  ],
};

describe("attachment_ids on POST /v1/messages (spec 4.3, docs/attachments.md)", () => {
  const t = useSandbox({ fixture: twoAccounts });
  resetBeforeEach(t);

  it("a send claims its attachments: message_id is set and the message lists them in order", async () => {
    const [a, b] = await upload(t, { name: "a.txt", bytes: "aaa" }, { name: "b.txt", bytes: "bb" });
    const sent = await send(t, { text: null, attachment_ids: [b.id, a.id] });
    expect(sent.attachments.map((x: any) => [x.id, x.message_id])).toEqual([
      [b.id, sent.id],
      [a.id, sent.id],
    ]);
    expect((await t.api("GET", `/v1/attachments/${a.id}`)).body.data.message_id).toBe(sent.id);
    const listed = (await t.api("GET", "/v1/messages")).body.data[0];
    expect(listed.attachments.map((x: any) => x.filename)).toEqual(["b.txt", "a.txt"]);
    expect(listed.attachments[0].url).toMatch(/\/media\//);
  });

  it("a claimed attachment cannot be sent again: 400 invalid_attachments", async () => {
    const [a] = await upload(t, { bytes: "x" });
    const first = await send(t, { attachment_ids: [a.id] });
    const again = await t.api("POST", "/v1/messages", {
      body: { to: IPHONE, from_handle: MAIN, attachment_ids: [a.id] },
    });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      error: "invalid_attachments",
      message: expect.stringContaining(`already used by message ${first.id}`),
    });
  });

  it("another account's attachment: 400 invalid_attachments, as if unknown", async () => {
    const [a] = await upload(t, { bytes: "x" });
    const res = await t.api("POST", "/v1/messages", {
      key: BETA_KEY,
      body: { to: IPHONE, from_handle: "+14155550111", attachment_ids: [a.id] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: "invalid_attachments",
      message: `attachment_ids: no attachment ${a.id} in this account`,
    });
  });

  it("two concurrent sends of one attachment: one 202, one 400", async () => {
    const [a] = await upload(t, { bytes: "x" });
    const body = { to: IPHONE, from_handle: MAIN, attachment_ids: [a.id] };
    const results = await Promise.all([
      t.api("POST", "/v1/messages", { body }),
      t.api("POST", "/v1/messages", { body }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([202, 400]);
    expect(results.find((r) => r.status === 400)?.body.error).toBe("invalid_attachments");
    const messages = (await t.api("GET", "/v1/messages")).body.data;
    expect(messages).toHaveLength(1);
  });

  it("a rejected send claims nothing: the attachments before the bad one stay free", async () => {
    const [a, b] = await upload(t, { bytes: "a" }, { bytes: "b" });
    await send(t, { attachment_ids: [b.id] });
    const refused = await t.api("POST", "/v1/messages", {
      body: { to: IPHONE, from_handle: MAIN, attachment_ids: [a.id, b.id] },
    });
    expect(refused.status).toBe(400);
    expect((await t.api("GET", `/v1/attachments/${a.id}`)).body.data.message_id).toBeNull();
    const later = await send(t, { attachment_ids: [a.id] });
    expect(later.attachments[0].id).toBe(a.id);
  });

  it("a send refused for another reason (reply_to) claims nothing either", async () => {
    const [a] = await upload(t, { bytes: "a" });
    const refused = await t.api("POST", "/v1/messages", {
      body: { to: IPHONE, from_handle: MAIN, attachment_ids: [a.id], reply_to: "7d0c8a3e-1111-4111-8111-111111111111" },
    });
    expect(refused.status).toBe(400);
    expect((await t.api("GET", `/v1/attachments/${a.id}`)).body.data.message_id).toBeNull();
  });

  it("an idempotent replay answers the original and claims nothing more", async () => {
    const [a, b] = await upload(t, { bytes: "a" }, { bytes: "b" });
    const first = await send(t, { attachment_ids: [a.id] }, { "idempotency-key": "k1" });
    const replay = await t.api("POST", "/v1/messages", {
      body: { to: IPHONE, from_handle: MAIN, attachment_ids: [b.id] },
      headers: { "idempotency-key": "k1" },
    });
    expect(replay.status).toBe(200);
    expect(replay.body.data.id).toBe(first.id);
    expect((await t.api("GET", `/v1/attachments/${b.id}`)).body.data.message_id).toBeNull();
  });

  it("attachments alone (no text) are a message; they go out with it", async () => {
    const [a] = await upload(t, { bytes: "hello" });
    const sent = await send(t, { text: null, attachment_ids: [a.id] });
    await t.advance(200);
    const after = await message(t, sent.id);
    expect(after).toMatchObject({ status: "sent", text: null });
    expect(after.attachments[0]).toMatchObject({
      id: a.id,
      size_bytes: 5,
      delivery: { channel: "imessage", decision: "unchanged", delivered_size_bytes: 5 },
    });
  });
});

describe("voice_memo on sends (spec 4.3)", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("the audio attachments of a voice_memo send are voice notes; the others are not", async () => {
    const [audio, text] = await upload(t, { name: "memo.wav", bytes: wavBytes(1) }, { name: "note.txt", bytes: "x" });
    const sent = await send(t, { voice_memo: true, attachment_ids: [audio.id, text.id] });
    expect(sent.attachments.map((a: any) => a.is_voice_memo)).toEqual([true, false]);
  });

  it("without voice_memo audio is an ordinary attachment", async () => {
    const [audio] = await upload(t, { name: "memo.wav", bytes: wavBytes(1) });
    const sent = await send(t, { attachment_ids: [audio.id] });
    expect(sent.attachments[0].is_voice_memo).toBe(false);
  });

  it.each([
    ["without attachments", async () => ({ text: "hi", voice_memo: true })],
    ["without audio", async () => ({ voice_memo: true, attachment_ids: [(await upload(t, { bytes: "x" }))[0].id] })],
  ])("voice_memo %s: 400 invalid_request naming voice_memo", async (_, body) => {
    const res = await t.api("POST", "/v1/messages", { body: { to: IPHONE, from_handle: MAIN, ...(await body()) } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: "invalid_request",
      message: expect.stringMatching(/^voice_memo: needs an audio attachment/),
    });
  });
});
