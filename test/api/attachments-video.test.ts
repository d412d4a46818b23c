import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { mp4Bytes, pathOf, raw, upload } from "../helpers/attachments.js";
import { MAGIC, MAIN, message, SALES, send } from "../helpers/messages.js";
import { useSandbox } from "../helpers/sandbox.js";

/** Whether an ffmpeg is on PATH here (Debian's is not installed on the project's machines by default). */
function hasFfmpeg(): boolean {
  try {
    execFileSync("ffmpeg", ["-version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const CAPS = { imessage: 100 * 1024 * 1024, sms: 60_000, whatsapp: 16 * 1024 * 1024 };

describe.runIf(hasFfmpeg())("video over a cap with ffmpeg on PATH (docs/attachments.md)", () => {
  const t = useSandbox({ settings: { mediaCapBytes: CAPS } });
  let video: Uint8Array;

  beforeAll(() => {
    // 3 s of test pattern and a tone at 3 Mbit/s: far over the 60 KB cap.
    const file = join(mkdtempSync(join(tmpdir(), "msgctl-video-")), "clip.mp4");
    execFileSync("ffmpeg", [
      "-hide_banner",
      "-loglevel",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "testsrc=size=640x480:rate=25",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=440",
      "-t",
      "3",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-b:v",
      "3M",
      "-c:a",
      "aac",
      "-pix_fmt",
      "yuv420p",
      file,
    ]);
    video = readFileSync(file);
    expect(video.length).toBeGreaterThan(CAPS.sms);
  });

  it("is really transcoded: an MP4 under the cap, of the same length, is what the URL serves", async () => {
    const [attachment] = await upload(t, { name: "clip.mp4", bytes: video });
    const sent = await send(t, { from_handle: MAIN, to: MAGIC.noIMessage, attachment_ids: [attachment.id] });
    await t.advance(200);
    const after = await message(t, sent.id);
    expect(after.status).toBe("sent");
    const [delivered] = after.attachments;
    expect(delivered).toMatchObject({
      filename: "clip.mp4",
      mime_type: "video/mp4",
      delivery: { decision: "transcoded", transcoder: "ffmpeg" },
    });
    expect(delivered.size_bytes).toBeLessThanOrEqual(CAPS.sms);
    const bytes = Buffer.from(await (await raw(t, pathOf(delivered.url))).arrayBuffer());
    expect(bytes.length).toBe(delivered.size_bytes);
    const probe = execFileSync(
      "ffprobe",
      ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", "-i", "pipe:0"],
      { input: bytes },
    ).toString();
    expect(Number(probe)).toBeCloseTo(3, 0);
  });

  it("reads the length of a WhatsApp inbound video from the file", async () => {
    const [attachment] = await upload(t, { name: "clip.mp4", bytes: video });
    const res = await t.api("POST", "/sandbox/v1/simulate/inbound", {
      body: { from: "+14155550191", to: SALES, channel: "whatsapp", attachment_ids: [attachment.id] },
    });
    expect(res.body.data.attachments[0].duration_seconds).toBeCloseTo(3, 1);
  });
});

describe("video over a cap with a broken ffmpeg setting", () => {
  const t = useSandbox({ settings: { mediaCapBytes: CAPS, ffmpegPath: "/nonexistent/ffmpeg" } });

  it("fails the send saying ffmpeg could not transcode it", async () => {
    const [attachment] = await upload(t, { name: "clip.mp4", bytes: mp4Bytes(100_000) });
    const sent = await send(t, { from_handle: MAIN, to: MAGIC.noIMessage, attachment_ids: [attachment.id] });
    await t.advance(200);
    const after = await message(t, sent.id);
    expect(after.status).toBe("failed");
    expect(after.error).toMatch(/^Attachment clip\.mp4: ffmpeg could not transcode it: /);
  });
});
