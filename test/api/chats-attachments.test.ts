import { beforeAll, describe, expect, it } from "vitest";
import { pathOf, pdfBytes, raw, upload, wavBytes } from "../helpers/attachments.js";
import { ALICE, allChats, BOB, createGroup, expectError, groupInbound } from "../helpers/groups.js";
import { events, IPHONE, MAGIC, MAIN, message, resetBeforeEach, SALES, send } from "../helpers/messages.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";

// Caps lowered so that test files stay small (the defaults are 100 MiB, 1 MiB and 16 MiB).
const CAPS = { imessage: 40_000, sms: 10_000, whatsapp: 20_000 };

let noisyPng: Uint8Array;
beforeAll(async () => {
  const sharp = (await import("sharp")).default;
  // Noise does not compress: this PNG is over the lowered iMessage cap, and gets transcoded.
  noisyPng = await sharp({
    create: {
      width: 320,
      height: 240,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 60 },
    },
  })
    .png()
    .toBuffer();
  expect(noisyPng.length).toBeGreaterThan(CAPS.imessage);
});

const sendInto = (t: TestSandbox, conversationId: string, body: Record<string, unknown>) =>
  send(t, { to: undefined, from_handle: undefined, conversation_id: conversationId, text: null, ...body });

/** The bytes a signed attachment URL serves. */
async function bytesOf(t: TestSandbox, url: string): Promise<Buffer> {
  const res = await raw(t, pathOf(url));
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** The message of a conversation (its only one). */
async function onlyMessageOf(t: TestSandbox, conversationId: string): Promise<any> {
  const list = (await t.api("GET", `/v1/messages?conversation_id=${conversationId}`)).body.data;
  expect(list).toHaveLength(1);
  return list[0];
}

describe("attachments in groups: follow-ups take attachment_ids (spec 4.3, 4.5)", () => {
  const t = useSandbox({ settings: { mediaCapBytes: CAPS, ffmpegPath: null } });
  resetBeforeEach(t);

  it("a send into a created group claims its attachments and goes to the members over iMessage", async () => {
    const group = await createGroup(t);
    const [a, b] = await upload(
      t,
      { name: "plan.txt", bytes: "the plan" },
      { name: "map.pdf", bytes: pdfBytes(2_000) },
    );
    const sent = await sendInto(t, group.id, { text: "see attached", attachment_ids: [b.id, a.id] });
    expect(sent.attachments.map((x: any) => [x.id, x.message_id])).toEqual([
      [b.id, sent.id],
      [a.id, sent.id],
    ]);
    await t.advance(700);
    const delivered = await message(t, sent.id);
    expect(delivered).toMatchObject({ status: "delivered", channel: "imessage", metadata: { sender_handle: MAIN } });
    expect(delivered.attachments.map((x: any) => x.delivery)).toEqual([
      expect.objectContaining({ channel: "imessage", decision: "unchanged" }),
      expect.objectContaining({ channel: "imessage", decision: "unchanged" }),
    ]);
  });

  it("a send of media only (no text) into a group is accepted; an attachment already claimed is 400 invalid_attachments", async () => {
    const group = await createGroup(t);
    const [a] = await upload(t, { bytes: "x" });
    await sendInto(t, group.id, { attachment_ids: [a.id] });
    const again = await t.api("POST", "/v1/messages", { body: { conversation_id: group.id, attachment_ids: [a.id] } });
    expectError(again, 400, "invalid_attachments");
  });

  it("a group MMS thread has the SMS/MMS cap: a PDF over it fails the send with message.failed", async () => {
    const mms = await groupInbound(t, { members: [MAGIC.android] });
    const [pdf] = await upload(t, { name: "report.pdf", bytes: pdfBytes(CAPS.sms + 1) });
    const sent = await sendInto(t, mms.conversation_id, { attachment_ids: [pdf.id] });
    await t.advance(200);
    const failed = await message(t, sent.id);
    expect(failed).toMatchObject({ status: "failed", error: expect.stringContaining("SMS/MMS media cap") });
    expect((await events(t, sent.id)).map((e) => e.type)).toEqual(["message.failed"]);
  });

  it("a group MMS thread sends a file at its cap unchanged, over SMS", async () => {
    const mms = await groupInbound(t, { members: [MAGIC.android] });
    const [pdf] = await upload(t, { name: "report.pdf", bytes: pdfBytes(CAPS.sms) });
    const sent = await sendInto(t, mms.conversation_id, { attachment_ids: [pdf.id] });
    await t.advance(200);
    const out = await message(t, sent.id);
    expect(out).toMatchObject({ status: "sent", channel: "sms" });
    expect(out.attachments[0].delivery).toMatchObject({ channel: "sms", cap_bytes: CAPS.sms, decision: "unchanged" });
  });

  it("POST /v1/chats takes no attachment_ids (spec 4.5: the opening message is text): 400 invalid_request naming it", async () => {
    const [a] = await upload(t, { bytes: "x" });
    const res = await t.api("POST", "/v1/chats", {
      body: { from_handle: MAIN, addresses: [ALICE, BOB], message: "hi", attachment_ids: [a.id] },
    });
    expect(expectError(res, 400, "invalid_request")).toMatch(/attachment_ids/);
    expect((await t.api("GET", `/v1/attachments/${a.id}`)).body.data.message_id).toBeNull();
  });
});

describe("attachments in groups: each of the account's numbers gets its own copies (spec 4.5, section 2)", () => {
  const t = useSandbox({ settings: { mediaCapBytes: CAPS, ffmpegPath: null } });
  resetBeforeEach(t);

  it("a member number's copy of a sent message holds the file as delivered (transcoded), under a new id, with the same bytes", async () => {
    const group = await createGroup(t, { addresses: [ALICE, SALES] });
    const [photo] = await upload(t, { name: "photo.png", bytes: noisyPng });
    const sent = await sendInto(t, group.id, { text: "look", attachment_ids: [photo.id] });
    await t.advance(700);
    const original = (await message(t, sent.id)).attachments[0];
    expect(original.delivery).toMatchObject({ decision: "transcoded" });

    const salesChat = (await allChats(t)).find((c) => c.from_handle === SALES);
    const copy = await onlyMessageOf(t, salesChat.id);
    expect(copy).toMatchObject({ direction: "inbound", text: "look", metadata: { sender_handle: MAIN } });
    const [copied] = copy.attachments;
    expect(copied.id).not.toBe(original.id);
    expect(copied).toMatchObject({
      message_id: copy.id,
      filename: original.filename,
      mime_type: "image/jpeg",
      size_bytes: original.size_bytes,
      delivery: null,
    });
    expect(await bytesOf(t, copied.url)).toEqual(await bytesOf(t, original.url));
    expect((await t.api("GET", `/v1/attachments/${copied.id}`)).body.data.message_id).toBe(copy.id);
    expect(await events(t, copy.id)).toEqual([
      expect.objectContaining({
        type: "message.received",
        has_attachments: true,
        is_group: true,
        to: SALES,
        from: MAIN,
      }),
    ]);
  });

  it("a contact's group message (simulate inbound --members) claims the uploads for one copy; every other member number gets its own", async () => {
    const [a] = await upload(t, { name: "invite.pdf", bytes: pdfBytes(3_000) });
    const received = await groupInbound(t, {
      from: IPHONE,
      to: MAIN,
      members: [SALES, ALICE],
      text: undefined,
      attachment_ids: [a.id],
    });
    expect(received).toMatchObject({
      text: null,
      attachments: [expect.objectContaining({ id: a.id, message_id: received.id, filename: "invite.pdf" })],
    });

    const salesChat = (await allChats(t)).find((c) => c.from_handle === SALES);
    const copy = await onlyMessageOf(t, salesChat.id);
    expect(copy.attachments).toEqual([
      expect.objectContaining({ message_id: copy.id, filename: "invite.pdf", size_bytes: 3_000 }),
    ]);
    expect(copy.attachments[0].id).not.toBe(a.id);
    expect(await bytesOf(t, copy.attachments[0].url)).toEqual(await bytesOf(t, received.attachments[0].url));
    const received2 = (await events(t)).filter((e) => e.type === "message.received");
    expect(received2.map((e) => [e.to, e.has_attachments])).toEqual([
      [MAIN, true],
      [SALES, true],
    ]);
  });

  it("--group into a WhatsApp group: a voice note, with the duration WhatsApp reports", async () => {
    const wa = await groupInbound(t, { from: IPHONE, to: SALES, members: [ALICE], channel: "whatsapp" });
    const [voice] = await upload(t, { name: "note.wav", bytes: wavBytes(2) });
    const res = await t.api("POST", "/sandbox/v1/simulate/inbound", {
      body: { from: ALICE, group: wa.conversation_id, attachment_ids: [voice.id], voice_memo: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      channel: "whatsapp",
      metadata: { sender_jid: expect.stringMatching(/@s\.whatsapp\.net$/) },
    });
    expect(res.body.data.attachments).toEqual([
      expect.objectContaining({ id: voice.id, is_voice_memo: true, duration_seconds: 2 }),
    ]);
  });

  it("a refused group inbound claims nothing and creates no group (duration_seconds is WhatsApp only)", async () => {
    const [voice] = await upload(t, { name: "note.wav", bytes: wavBytes(1) });
    const res = await t.api("POST", "/sandbox/v1/simulate/inbound", {
      body: { from: IPHONE, to: MAIN, members: [ALICE], attachment_ids: [voice.id], duration_seconds: 3 },
    });
    expect(expectError(res, 400, "invalid_request")).toMatch(/^duration_seconds: /);
    expect(await allChats(t)).toEqual([]);
    expect((await t.api("GET", `/v1/attachments/${voice.id}`)).body.data.message_id).toBeNull();
  });
});
