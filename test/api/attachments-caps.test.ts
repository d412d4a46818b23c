import { beforeAll, describe, expect, it } from "vitest";
import { jpegFrameMarker, mp4Bytes, pathOf, pdfBytes, raw, upload } from "../helpers/attachments.js";
import { events, IPHONE, MAGIC, MAIN, message, resetBeforeEach, SALES, send } from "../helpers/messages.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";

// Caps lowered so that test images stay small (the defaults are 100 MiB, 1 MiB and 16 MiB).
const CAPS = { imessage: 40_000, sms: 10_000, whatsapp: 20_000 };

/** Where a send goes for each channel: the recipient and number routing turns into that channel. */
const ROUTES = {
  imessage: { from_handle: MAIN, to: IPHONE },
  sms: { from_handle: MAIN, to: MAGIC.noIMessage },
  whatsapp: { from_handle: SALES, to: IPHONE, channel: "whatsapp" },
} as const;

type Channel = keyof typeof ROUTES;
type Kind = "small image" | "large image" | "large video" | "large pdf";

let files: Record<Kind, { name: string; bytes: Uint8Array }>;

beforeAll(async () => {
  const sharp = (await import("sharp")).default;
  // Noise does not compress: this PNG is far over every cap.
  const noisy = await sharp({
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
  const small = await sharp({
    create: { width: 40, height: 30, channels: 4, background: { r: 200, g: 20, b: 20, alpha: 0.5 } },
  })
    .png()
    .toBuffer();
  files = {
    "small image": { name: "small.png", bytes: small },
    "large image": { name: "large.png", bytes: noisy },
    "large video": { name: "clip.mp4", bytes: mp4Bytes(60_000) },
    "large pdf": { name: "report.pdf", bytes: pdfBytes(60_000) },
  };
  expect(noisy.length).toBeGreaterThan(CAPS.imessage);
  expect(small.length).toBeLessThan(CAPS.sms);
});

/** Sends one file on a channel with a quality; answers the message after its first attempt. */
async function sendFile(t: TestSandbox, kind: Kind, channel: Channel, quality: "fit" | "original") {
  const [attachment] = await upload(t, files[kind]);
  const sent = await send(t, {
    ...ROUTES[channel],
    text: null,
    attachment_ids: [attachment.id],
    media_quality: quality,
  });
  await t.advance(200);
  return message(t, sent.id);
}

/** What the caps must do (docs/attachments.md): the decision and the message's status after its first attempt. */
function expected(kind: Kind, channel: Channel, quality: "fit" | "original"): { decision: string; status: string } {
  if (kind === "small image") return { decision: "unchanged", status: "sent" };
  const applied = channel === "whatsapp" ? "fit" : quality;
  if (applied === "original" || kind === "large pdf") return { decision: "rejected", status: "failed" };
  return kind === "large image"
    ? { decision: "transcoded", status: "sent" }
    : { decision: "transcode_simulated", status: "sent" };
}

const CASES = (["small image", "large image", "large video", "large pdf"] as Kind[]).flatMap((kind) =>
  (["imessage", "sms", "whatsapp"] as Channel[]).flatMap((channel) =>
    (["fit", "original"] as const).map((quality) => [kind, channel, quality] as const),
  ),
);

describe("media caps × media_quality × channel (docs/attachments.md)", () => {
  // ffmpegPath null: video over a cap is simulated, the same on every machine.
  const t = useSandbox({ settings: { mediaCapBytes: CAPS, ffmpegPath: null } });
  resetBeforeEach(t);

  it.each(CASES)("%s on %s with %s", async (kind, channel, quality) => {
    const m = await sendFile(t, kind, channel, quality);
    const want = expected(kind, channel, quality);
    const original = files[kind].bytes.length;
    const [attachment] = m.attachments;
    expect(m.status).toBe(want.status);
    expect(attachment.delivery).toMatchObject({
      channel,
      cap_bytes: CAPS[channel],
      media_quality: channel === "whatsapp" ? "fit" : quality,
      decision: want.decision,
      original_size_bytes: original,
    });
    expect(attachment.original_size_bytes).toBe(original);

    if (want.status === "failed") {
      expect(m.channel).toBeNull();
      expect(m.error).toBe(attachment.delivery.error);
      expect(m.error).toMatch(
        quality === "original" && channel !== "whatsapp"
          ? /media_quality is original/
          : /only images and video are transcoded/,
      );
      const failed = (await events(t, m.id)).find((e) => e.type === "message.failed");
      expect(failed).toMatchObject({ error: m.error, status: "failed" });
      return;
    }
    expect(m.channel).toBe(channel);
    if (want.decision === "unchanged") {
      expect(attachment).toMatchObject({ size_bytes: original, mime_type: "image/png", filename: "small.png" });
    } else if (want.decision === "transcode_simulated") {
      // No copy is made: the URL serves the upload; the simulated size is recorded.
      expect(attachment).toMatchObject({ size_bytes: original, mime_type: "video/mp4", filename: "clip.mp4" });
      expect(attachment.delivery).toMatchObject({
        transcoder: null,
        delivered_size_bytes: Math.floor(CAPS[channel] * 0.9),
      });
    } else {
      // The delivered copy is a real, smaller, valid image, and it is what the URL serves.
      expect(attachment).toMatchObject({ mime_type: "image/jpeg", filename: "large.jpg" });
      expect(attachment.delivery).toMatchObject({ transcoder: "sharp", delivered_size_bytes: attachment.size_bytes });
      expect(attachment.size_bytes).toBeLessThanOrEqual(CAPS[channel]);
      const res = await raw(t, pathOf(attachment.url));
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(res.headers.get("content-type")).toBe("image/jpeg");
      expect(bytes.length).toBe(attachment.size_bytes);
      const sharp = (await import("sharp")).default;
      const info = await sharp(bytes).metadata();
      expect(info).toMatchObject({ format: "jpeg" });
      expect(info.width).toBeGreaterThan(16);
      await sharp(bytes).raw().toBuffer();
    }
  });
});

describe("media caps: when and how they are decided", () => {
  const t = useSandbox({ settings: { mediaCapBytes: CAPS, ffmpegPath: null } });
  resetBeforeEach(t);

  it("transcoding happens at the first attempt, in virtual time: sent 200 ms after acceptance as usual", async () => {
    const [attachment] = await upload(t, files["large image"]);
    const sent = await send(t, { ...ROUTES.sms, attachment_ids: [attachment.id] });
    expect(sent.attachments[0].delivery).toBeNull();
    await t.advance(199);
    expect((await message(t, sent.id)).status).toBe("queued");
    await t.advance(1);
    const after = await message(t, sent.id);
    expect(after.status).toBe("sent");
    expect(Date.parse(after.sent_at) - Date.parse(after.created_at)).toBe(200);
  });

  it.each(["imessage", "sms", "whatsapp"] as Channel[])(
    "the copy delivered on %s is a baseline JPEG (SOF0), what every phone and MMS gateway shows",
    async (channel) => {
      const m = await sendFile(t, "large image", channel, "fit");
      const bytes = new Uint8Array(await (await raw(t, pathOf(m.attachments[0].url))).arrayBuffer());
      expect(jpegFrameMarker(bytes).toString(16)).toBe("ffc0");
    },
  );

  it("the cap is the one of the channel resolved when the message leaves the queue", async () => {
    const [attachment] = await upload(t, files["large image"]);
    const sent = await send(t, { from_handle: MAIN, to: "+14155550150", attachment_ids: [attachment.id] });
    // Accepted while the contact is on iMessage; by the attempt it is not: SMS's cap applies.
    await t.api("PATCH", "/sandbox/v1/contacts/%2B14155550150", { body: { imessage: false } });
    await t.advance(200);
    const after = await message(t, sent.id);
    expect(after.channel).toBe("sms");
    expect(after.attachments[0].delivery).toMatchObject({ channel: "sms", cap_bytes: CAPS.sms });
    expect(after.attachments[0].size_bytes).toBeLessThanOrEqual(CAPS.sms);
  });

  it("one attachment that cannot go fails the whole send at once, with message.failed", async () => {
    const [image, pdf] = await upload(t, files["small image"], files["large pdf"]);
    const sent = await send(t, { ...ROUTES.sms, attachment_ids: [image.id, pdf.id] });
    await t.advance(200);
    const after = await message(t, sent.id);
    expect(after.status).toBe("failed");
    expect(after.error).toMatch(
      /^Attachment report\.pdf \(application\/pdf, 58\.6 KiB\) is over the SMS\/MMS media cap of 9\.8 KiB/,
    );
    expect((await events(t, sent.id)).map((e) => e.type)).toEqual(["message.failed"]);
  });

  it("a retry of a message failed by its media fails again at its attempt", async () => {
    const [pdf] = await upload(t, files["large pdf"]);
    const sent = await send(t, { ...ROUTES.sms, attachment_ids: [pdf.id] });
    await t.advance(200);
    expect((await t.api("POST", `/v1/messages/${sent.id}/retry`)).status).toBe(200);
    await t.advance(200);
    expect((await message(t, sent.id)).status).toBe("failed");
  });
});

describe("media caps: an image that cannot fit even after transcoding", () => {
  const t = useSandbox({ settings: { mediaCapBytes: { ...CAPS, sms: 120 } } });

  it("fails the send with an error saying so", async () => {
    const [attachment] = await upload(t, files["large image"]);
    const sent = await send(t, { ...ROUTES.sms, attachment_ids: [attachment.id] });
    await t.advance(200);
    const after = await message(t, sent.id);
    expect(after.status).toBe("failed");
    expect(after.error).toMatch(
      /^Attachment large\.png \(image\/png, .+\) cannot fit the SMS\/MMS media cap of 120 B even after transcoding \(smallest copy .+\)$/,
    );
    expect(after.attachments[0].delivery).toMatchObject({ decision: "rejected", delivered_size_bytes: null });
  });
});

describe("media caps: the documented defaults (iMessage 100 MiB, SMS/MMS 1 MiB, WhatsApp 16 MiB)", () => {
  const t = useSandbox();

  it("are the caps decisions are made against", async () => {
    const caps: Record<string, number> = {};
    for (const channel of ["imessage", "sms", "whatsapp"] as const) {
      const [attachment] = await upload(t, { bytes: "x" });
      const sent = await send(t, { ...ROUTES[channel], attachment_ids: [attachment.id] });
      await t.advance(200);
      caps[channel] = (await message(t, sent.id)).attachments[0].delivery.cap_bytes;
    }
    expect(caps).toEqual({ imessage: 104_857_600, sms: 1_048_576, whatsapp: 16_777_216 });
  });
});
