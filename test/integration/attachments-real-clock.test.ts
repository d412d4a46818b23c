import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type StartedSandbox } from "../../src/runtime/start-sandbox.js";

describe("media on a real clock (docs/sandbox.md): transcoding runs in the tick loop", () => {
  let sandbox: StartedSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      clock: "real",
      settings: {
        sendLatencyMs: 20,
        deliverLatencyMs: 20,
        readDelayMs: 20,
        mediaCapBytes: { imessage: 30_000, sms: 30_000, whatsapp: 30_000 },
      },
    });
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  it("an image over the cap is transcoded and the message goes out without anyone advancing the clock", async () => {
    const sharp = (await import("sharp")).default;
    const photo = await sharp({
      create: {
        width: 300,
        height: 300,
        channels: 3,
        background: "#888",
        noise: { type: "gaussian", mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    const [attachment] = await sandbox.client.attachments.upload([{ filename: "photo.png", data: photo }]);
    const { message } = await sandbox.client.messages.send({
      to: "+14155550191",
      from_handle: "+14155550101",
      attachment_ids: [attachment!.id],
    });
    await sandbox.waitForEvent("message.sent", { match: { message_id: message.id }, timeout: 10_000 });
    const sent = await sandbox.client.messages.get(message.id);
    expect(sent.attachments[0]?.delivery).toMatchObject({ decision: "transcoded", transcoder: "sharp" });
    expect(sent.attachments[0]?.size_bytes).toBeLessThanOrEqual(30_000);
  });
});
