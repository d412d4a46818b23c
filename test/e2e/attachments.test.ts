import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli, useServe } from "../helpers/cli.js";

const KEY = "sk_test_acme_0000000000000000";

describe("msgctl attachments, send --attach, simulate inbound --attach, end to end (README.md)", () => {
  const sandbox = useServe();
  const { cli, json } = sandbox;
  const dir = mkdtempSync(join(tmpdir(), "msgctl-e2e-attachments-"));
  const file = (name: string) => join(dir, name);

  beforeAll(async () => {
    const sharp = (await import("sharp")).default;
    // 1.9 MiB of noise: over the SMS/MMS cap (1 MiB) and over the 1 MiB progress threshold.
    await sharp({
      create: {
        width: 900,
        height: 700,
        channels: 3,
        background: "#888",
        noise: { type: "gaussian", mean: 128, sigma: 60 },
      },
    })
      .png()
      .toFile(file("photo.png"));
    writeFileSync(file("notes.txt"), "meeting at noon\n");
    const wav = Buffer.alloc(44 + 16_000);
    wav.write("RIFF", 0, "ascii");
    wav.writeUInt32LE(36 + 16_000, 4);
    wav.write("WAVEfmt ", 8, "ascii");
    wav.writeUInt32LE(16, 16);
    wav.writeUInt16LE(1, 20);
    wav.writeUInt16LE(1, 22);
    wav.writeUInt32LE(8_000, 24);
    wav.writeUInt32LE(16_000, 28);
    wav.writeUInt16LE(2, 32);
    wav.writeUInt16LE(16, 34);
    wav.write("data", 36, "ascii");
    wav.writeUInt32LE(16_000, 40);
    writeFileSync(file("memo.wav"), wav);
  });
  beforeEach(() => sandbox.reset());

  it("uploads files (--json: the attachments only), shows one, downloads it", async () => {
    const uploaded = await json("attachments", "upload", file("notes.txt"), file("photo.png"));
    expect(uploaded.map((a: any) => [a.filename, a.mime_type])).toEqual([
      ["notes.txt", "text/plain"],
      ["photo.png", "image/png"],
    ]);
    expect(await json("attachments", "get", uploaded[0].id)).toMatchObject({ id: uploaded[0].id, size_bytes: 16 });
    const human = await cli("attachments", "get", uploaded[0].id);
    expect(human.stdout).toMatch(/filename\s+notes\.txt/);
    const saved = await cli("attachments", "download", uploaded[0].id, "-o", file("copy.txt"));
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toBe(`Saved ${file("copy.txt")} (16 B, text/plain)\n`);
    expect(readFileSync(file("copy.txt"), "utf8")).toBe("meeting at noon\n");
  });

  it("download without -o writes the attachment's filename in the working directory", async () => {
    const [uploaded] = await json("attachments", "upload", file("notes.txt"));
    const cwd = mkdtempSync(join(tmpdir(), "msgctl-e2e-download-"));
    const flags = ["--base-url", sandbox.serve.ready.base_url, "--api-key", KEY];
    const result = await runCli(["attachments", "download", uploaded.id, ...flags], { cwd });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("meeting at noon\n");
  });

  it("prints upload progress as plain lines on stderr when not on a terminal (uploads of 1 MiB or more)", async () => {
    const result = await cli("attachments", "upload", file("photo.png"));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ID\s+FILENAME\s+TYPE\s+SIZE\n.+photo\.png\s+image\/png\s+1\.\d MiB/);
    expect(result.stderr).toMatch(/^Uploading photo\.png \(1\.\d MiB\)…\n(  \d+%\n)+Uploaded photo\.png\n$/);
    const small = await cli("attachments", "upload", file("notes.txt"));
    expect(small.stderr).toBe("");
  });

  it("presign prints the upload URL and a curl line that works as printed", async () => {
    const human = await cli("attachments", "presign", "--filename", file("notes.txt"), "--content-type", "text/plain");
    expect(human.code).toBe(0);
    const url = /upload url\s+(\S+)/.exec(human.stdout)?.[1] ?? "";
    const curl = human.stdout.trim().split("\n").at(-1) ?? "";
    expect(curl).toBe(`curl -X PUT -H 'content-type: text/plain' --data-binary @${file("notes.txt")} '${url}'`);
    // What that curl line does, with fetch (curl may not be installed where the tests run).
    const put = await fetch(url, {
      method: "PUT",
      headers: { "content-type": "text/plain" },
      body: readFileSync(file("notes.txt")),
    });
    expect(put.status).toBe(200);
    const presigned = await json("attachments", "presign", "--filename", "x.png", "--content-type", "image/png");
    expect(presigned).toEqual({
      id: expect.any(String),
      upload_url: expect.any(String),
      method: "PUT",
      headers: { "content-type": "image/png" },
      expires_at: expect.any(String),
    });
  });

  it("send --attach uploads, then sends; an image over the SMS/MMS cap goes out transcoded", async () => {
    const sent = await json(
      "send",
      "--to",
      "+14155550173",
      "--from",
      "+14155550101",
      "--text",
      "photo",
      "--attach",
      file("photo.png"),
      file("notes.txt"),
    );
    expect(sent.attachments.map((a: any) => a.filename)).toEqual(["photo.png", "notes.txt"]);
    await json("clock", "advance", "1s");
    const after = await json("messages", "get", sent.id);
    expect(after).toMatchObject({ status: "delivered", channel: "sms" });
    expect(after.attachments[0]).toMatchObject({
      filename: "photo.jpg",
      mime_type: "image/jpeg",
      delivery: { decision: "transcoded", cap_bytes: 1_048_576 },
    });
    expect(after.attachments[0].size_bytes).toBeLessThanOrEqual(1_048_576);
    const human = await cli("messages", "get", sent.id);
    expect(human.stdout).toMatch(/attachment\s+\S+ photo\.jpg \(image\/jpeg, \d+ bytes, transcoded\)/);
  });

  it("send --attach with --media-quality original fails over the cap, saying why", async () => {
    const sent = await json(
      "send",
      "--to",
      "+14155550173",
      "--from",
      "+14155550101",
      "--attach",
      file("photo.png"),
      "--media-quality",
      "original",
    );
    await json("clock", "advance", "1s");
    const after = await json("messages", "get", sent.id);
    expect(after.status).toBe("failed");
    expect(after.error).toMatch(/over the SMS\/MMS media cap of 1\.0 MiB and media_quality is original/);
  });

  it("simulate inbound --attach --voice-memo: the contact's files, flagged, fetchable", async () => {
    const received = await json(
      "simulate",
      "inbound",
      "--from",
      "+14155550191",
      "--to",
      "+14155550103",
      "--channel",
      "whatsapp",
      "--attach",
      file("memo.wav"),
      "--voice-memo",
    );
    expect(received.attachments[0]).toMatchObject({ filename: "memo.wav", is_voice_memo: true, duration_seconds: 1 });
    const withDuration = await json(
      "simulate",
      "inbound",
      "--from",
      "+14155550191",
      "--to",
      "+14155550103",
      "--channel",
      "whatsapp",
      "--attach",
      file("memo.wav"),
      "--duration",
      "7.5",
    );
    expect(withDuration.attachments[0].duration_seconds).toBe(7.5);
    const event = await json(
      "wait",
      "event",
      "message.received",
      "--match",
      `message_id=${received.id}`,
      "--timeout",
      "2s",
    );
    expect(event.payload.has_attachments).toBe(true);
    const saved = await cli("attachments", "download", received.attachments[0].id, "-o", file("got.wav"));
    expect(saved.code).toBe(0);
    expect(readFileSync(file("got.wav"))).toEqual(readFileSync(file("memo.wav")));
  });

  it.each([
    [["attachments", "upload"]],
    [["attachments", "upload", "/no/such/file.png"]],
    [["attachments", "presign", "--filename", "a.png"]],
    [["send", "--to", "+14155550191", "--from", "+14155550101", "--attach", "/no/such/file.png"]],
    [["send", "--to", "+14155550191", "--from", "+14155550101"]],
    [["simulate", "inbound", "--from", "+14155550191", "--to", "+14155550101"]],
    [["simulate", "inbound", "--from", "+14155550191", "--to", "+14155550101", "--text", "hi", "--voice-memo"]],
    [["simulate", "inbound", "--from", "+14155550191", "--to", "+14155550101", "--text", "hi", "--duration", "soon"]],
  ])("exits 2 on the usage error %j", async (args) => {
    const result = await cli(...args);
    expect(result.code, result.stderr).toBe(2);
  });

  it("exits 1 with the API's code when the API refuses", async () => {
    const missing = await cli("attachments", "get", "7d0c8a3e-1111-4111-8111-111111111111");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/not_found: Attachment .+ not found \(request id req_/);
    const badType = await cli("attachments", "presign", "--filename", "a.png", "--content-type", "png");
    expect(badType.code).toBe(1);
    expect(badType.stderr).toContain("invalid_request: content_type: must be a media type");
  });
});
