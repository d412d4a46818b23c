import { describe, expect, it } from "vitest";
import { mp4Bytes, oggOpusBytes, pathOf, raw, upload, wavBytes } from "../helpers/attachments.js";
import { events, IPHONE, MAIN, resetBeforeEach, SALES } from "../helpers/messages.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";

/** POST /sandbox/v1/simulate/inbound; answers status and body. */
const inbound = (t: TestSandbox, body: Record<string, unknown>) =>
  t.api("POST", "/sandbox/v1/simulate/inbound", { body: { from: IPHONE, to: MAIN, ...body } });

describe("inbound media (simulate inbound with attachment_ids, docs/control-api.md)", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("stores the files on the message, fires message.received with has_attachments: true, and the media is fetchable", async () => {
    const [photo] = await upload(t, { name: "photo.txt", bytes: "pretend photo" });
    const res = await inbound(t, { attachment_ids: [photo.id] });
    expect(res.status).toBe(201);
    const received = res.body.data;
    expect(received).toMatchObject({
      direction: "inbound",
      text: null,
      attachments: [{ id: photo.id, message_id: received.id, filename: "photo.txt" }],
    });
    const [event] = await events(t, received.id);
    expect(event).toMatchObject({ type: "message.received", has_attachments: true, text: null });
    const fetched = (await t.api("GET", `/v1/attachments/${received.attachments[0].id}`)).body.data;
    const bytes = await (await raw(t, pathOf(fetched.url))).text();
    expect(bytes).toBe("pretend photo");
  });

  it("text and media together; has_attachments stays false without media", async () => {
    const [file] = await upload(t, { bytes: "x" });
    const withMedia = (await inbound(t, { text: "look", attachment_ids: [file.id] })).body.data;
    const plain = (await inbound(t, { text: "plain" })).body.data;
    const payloads = await events(t);
    expect(payloads.find((p) => p.message_id === withMedia.id)).toMatchObject({ text: "look", has_attachments: true });
    expect(payloads.find((p) => p.message_id === plain.id)).toMatchObject({ has_attachments: false });
  });

  it("voice notes are flagged is_voice_memo: audio with voice_memo, and the formats phones record them in", async () => {
    const [wav, opus, other] = await upload(
      t,
      { name: "a.wav", bytes: wavBytes(1) },
      { name: "ptt.ogg", bytes: oggOpusBytes() },
      { name: "b.wav", bytes: wavBytes(1) },
    );
    const flagged = (await inbound(t, { attachment_ids: [wav.id], voice_memo: true })).body.data;
    const detected = (await inbound(t, { attachment_ids: [opus.id] })).body.data;
    const plain = (await inbound(t, { attachment_ids: [other.id] })).body.data;
    expect(flagged.attachments[0].is_voice_memo).toBe(true);
    expect(detected.attachments[0]).toMatchObject({ mime_type: "audio/ogg; codecs=opus", is_voice_memo: true });
    expect(plain.attachments[0].is_voice_memo).toBe(false);
  });

  it("WhatsApp audio reports duration_seconds read from the file; iMessage and SMS report none", async () => {
    const [onWhatsApp, onIMessage] = await upload(
      t,
      { name: "a.wav", bytes: wavBytes(2.5) },
      { name: "b.wav", bytes: wavBytes(2.5) },
    );
    const whatsapp = (await inbound(t, { to: SALES, channel: "whatsapp", attachment_ids: [onWhatsApp.id] })).body.data;
    const imessage = (await inbound(t, { attachment_ids: [onIMessage.id] })).body.data;
    expect(whatsapp.attachments[0].duration_seconds).toBe(2.5);
    expect(imessage.attachments[0].duration_seconds).toBeNull();
  });

  it("WhatsApp video takes duration_seconds from the body when the file does not say", async () => {
    const [clip, notes] = await upload(t, { name: "clip.mp4", bytes: mp4Bytes(2_000) }, { name: "n.txt", bytes: "x" });
    const received = (
      await inbound(t, { to: SALES, channel: "whatsapp", attachment_ids: [clip.id, notes.id], duration_seconds: 12.5 })
    ).body.data;
    expect(received.attachments.map((a: any) => a.duration_seconds)).toEqual([12.5, null]);
  });

  it("an inbound attachment is claimed: it cannot be sent or received again", async () => {
    const [file] = await upload(t, { bytes: "x" });
    await inbound(t, { attachment_ids: [file.id] });
    const again = await inbound(t, { attachment_ids: [file.id] });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_attachments");
    const send = await t.api("POST", "/v1/messages", {
      body: { to: IPHONE, from_handle: MAIN, attachment_ids: [file.id] },
    });
    expect(send.body.error).toBe("invalid_attachments");
  });

  it.each([
    ["neither text nor attachments", {}, "invalid_request", /^text: text or attachment_ids is required/],
    [
      "an unknown attachment",
      { attachment_ids: ["7d0c8a3e-1111-4111-8111-111111111111"] },
      "invalid_attachments",
      /^attachment_ids: no attachment/,
    ],
    [
      "a malformed attachment id",
      { attachment_ids: ["nope"] },
      "invalid_request",
      /^attachment_ids\.0: must be a UUID/,
    ],
    [
      "voice_memo without attachments",
      { text: "hi", voice_memo: true },
      "invalid_request",
      /^voice_memo: needs attachment_ids/,
    ],
    [
      "duration_seconds off WhatsApp",
      { attachment: "audio", duration_seconds: 3 },
      "invalid_request",
      /^duration_seconds: only WhatsApp reports durations/,
    ],
    [
      "voice_memo without audio",
      { attachment: "text", voice_memo: true },
      "invalid_request",
      /^voice_memo: needs an audio attachment/,
    ],
    [
      "a negative duration",
      { attachment: "audio", duration_seconds: -1 },
      "invalid_request",
      /^duration_seconds: must be more than 0/,
    ],
  ])("%s: 400 %s, nothing received", async (_, input, code, message) => {
    const { attachment, ...body } = input as Record<string, unknown>;
    if (attachment) {
      const [file] = await upload(t, attachment === "audio" ? { name: "a.wav", bytes: wavBytes(1) } : { bytes: "x" });
      body.attachment_ids = [file.id];
    }
    const res = await inbound(t, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: code, message: expect.stringMatching(message) });
    expect(await events(t)).toEqual([]);
  });
});
