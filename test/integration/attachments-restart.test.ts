import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/index.js";

describe("attachments survive a restart with the same database (docs/sandbox.md)", () => {
  it("keeps the metadata in the database and the bytes next to it, transcoded copies included", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-attachments-")), "sandbox.db");
    const sharp = (await import("sharp")).default;
    const photo = await sharp({
      create: {
        width: 200,
        height: 150,
        channels: 3,
        background: "#888",
        noise: { type: "gaussian", mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    const settings = { mediaCapBytes: { imessage: 100 * 1024 * 1024, sms: 20_000, whatsapp: 16 * 1024 * 1024 } };

    const first = await startSandbox({ db, settings });
    const [uploaded, kept] = await first.client.attachments.upload([
      { filename: "photo.png", data: photo },
      { filename: "notes.txt", data: new TextEncoder().encode("kept across restarts") },
    ]);
    const { message } = await first.client.messages.send({
      from_handle: "+14155550101",
      to: "+14155550173",
      attachment_ids: [uploaded!.id],
    });
    await first.clock.advance(200);
    const transcoded = await first.client.attachments.get(uploaded!.id);
    expect(transcoded.delivery?.decision).toBe("transcoded");
    await first.stop();

    const second = await startSandbox({ db, settings });
    try {
      const again = await second.client.attachments.get(uploaded!.id);
      expect(again).toMatchObject({
        message_id: message.id,
        size_bytes: transcoded.size_bytes,
        original_size_bytes: photo.length,
        delivery: transcoded.delivery,
      });
      const copy = Buffer.from(await (await second.client.attachments.download(again)).arrayBuffer());
      expect(copy.length).toBe(transcoded.size_bytes);
      expect((await sharp(copy).metadata()).format).toBe("jpeg");
      const notes = await second.client.attachments.get(kept!.id);
      expect(await (await second.client.attachments.download(notes)).text()).toBe("kept across restarts");
      expect((await second.client.messages.get(message.id)).attachments.map((a) => a.id)).toEqual([uploaded!.id]);
    } finally {
      await second.stop();
    }
  });
});
