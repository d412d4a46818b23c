import { describe, expect, it } from "vitest";
import { formOf, PNG_MAGIC, raw, upload, uploadRaw } from "../helpers/attachments.js";
import { resetBeforeEach } from "../helpers/messages.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";

const BETA_KEY = "sk_test_beta_0000000000000000";
const twoAccounts = {
  accounts: [
    {
      name: "Acme",
      api_key: "sk_test_acme_0000000000000000",
      numbers: [{ handle: "+14155550101", channels: ["imessage", "sms"] }],
    },
    { name: "Beta", api_key: BETA_KEY, numbers: [{ handle: "+14155550111", channels: ["imessage", "sms"] }] },
  ],
};

const attachmentRows = (t: TestSandbox) =>
  t.sandbox.db.all(t.sandbox.db.q.selectFrom("attachments").selectAll()).length;

describe("POST /v1/attachments (spec 4.2): accepted", () => {
  const t = useSandbox({ fixture: twoAccounts });
  resetBeforeEach(t);

  it("answers 201 with Attachment[] in part order, every field of spec section 2", async () => {
    const res = await uploadRaw(t, [
      { name: "a.txt", bytes: "first" },
      { name: "b.txt", bytes: "second!" },
    ]);
    expect(res.status).toBe(201);
    expect(res.headers.get("x-request-id")).toBe(res.body.request_id);
    const [a, b] = res.body.data;
    expect(a).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      filename: "a.txt",
      mime_type: "text/plain",
      size_bytes: 5,
      is_voice_memo: false,
      duration_seconds: null,
      url: expect.stringMatching(/\/media\/[0-9a-f-]{36}\?expires=\d+&signature=[0-9a-f]{64}$/),
      message_id: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      status: "uploaded",
      url_expires_at: expect.any(String),
      original_size_bytes: 5,
      delivery: null,
    });
    expect(b).toMatchObject({ filename: "b.txt", size_bytes: 7 });
  });

  it("accepts up to 10 files in one request (spec section 8)", async () => {
    const files = Array.from({ length: 10 }, (_, i) => ({ name: `f${i}.txt`, bytes: `file ${i}` }));
    const uploaded = await upload(t, ...files);
    expect(uploaded.map((a) => a.filename)).toEqual(files.map((f) => f.name));
  });

  it("sniffs the MIME type from the bytes, never from the client", async () => {
    const sharp = (await import("sharp")).default;
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#00f" } })
      .png()
      .toBuffer();
    const [image, text, binary] = await upload(
      t,
      { name: "photo.txt", bytes: png, type: "text/plain" },
      { name: "notes.png", bytes: "plain words, ünïcode too", type: "image/png" },
      { name: "blob.dat", bytes: Uint8Array.from([0, 1, 2, 3, 0xff, 0xfe]), type: "image/jpeg" },
    );
    expect(image.mime_type).toBe("image/png");
    expect(text.mime_type).toBe("text/plain");
    expect(binary.mime_type).toBe("application/octet-stream");
  });

  it.each([
    ["../../etc/passwd", "passwd"],
    ["C:\\Users\\me\\photo.png", "photo.png"],
    ["\u202egnp.exe", "gnp.exe"],
    ["a<b>|c?.txt", "a_b__c_.txt"],
    ["...hidden", "hidden"],
  ])("sanitises the filename %j → %j", async (name, expected) => {
    const [attachment] = await upload(t, { name, bytes: "x" });
    expect(attachment.filename).toBe(expected);
  });

  it("bounds the filename at 200 characters, keeping the extension", async () => {
    const [attachment] = await upload(t, { name: `${"a".repeat(500)}.jpeg`, bytes: "x" });
    expect(attachment.filename).toHaveLength(200);
    expect(attachment.filename.endsWith(".jpeg")).toBe(true);
  });

  it("names a file without a usable name after its sniffed type", async () => {
    const [attachment] = await upload(t, { name: "/", bytes: PNG_MAGIC });
    expect(attachment.filename).toBe("attachment.png");
  });

  it("GET /v1/attachments/:id answers the attachment with a fresh signed url", async () => {
    const [uploaded] = await upload(t, { name: "a.txt", bytes: "hello" });
    await t.advance(60_000);
    const res = await t.api("GET", `/v1/attachments/${uploaded.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: uploaded.id, filename: "a.txt", size_bytes: 5 });
    expect(res.body.data.url).not.toBe(uploaded.url);
    expect(Date.parse(res.body.data.url_expires_at)).toBeGreaterThan(Date.parse(uploaded.url_expires_at));
  });

  it("GET /v1/attachments/:id is 404 for another account's, unknown and malformed ids", async () => {
    const [mine] = await upload(t, { bytes: "x" });
    for (const [id, key] of [
      [mine.id, BETA_KEY],
      ["7d0c8a3e-1111-4111-8111-111111111111", undefined],
      ["nope", undefined],
    ] as const) {
      const res = await t.api("GET", `/v1/attachments/${id}`, key ? { key } : {});
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: "not_found", request_id: expect.any(String) });
    }
  });
});

describe("POST /v1/attachments: refusals change nothing", () => {
  const t = useSandbox({ settings: { maxUploadBytes: 1_000 } });
  resetBeforeEach(t);

  it("401 without a key", async () => {
    const res = await raw(t, "/v1/attachments", { method: "POST", body: formOf([{ bytes: "x" }]) });
    expect(res.status).toBe(401);
    expect(attachmentRows(t)).toBe(0);
  });

  it("11 files: 400 invalid_request naming file, nothing stored", async () => {
    const res = await uploadRaw(
      t,
      Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, bytes: `file ${i}` })),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: "invalid_request",
      message: expect.stringMatching(/^file: at most 10 files/),
    });
    expect(attachmentRows(t)).toBe(0);
  });

  it("a file over the per-file limit (a setting; 100 MiB by default): 413 payload_too_large, nothing stored", async () => {
    const res = await uploadRaw(t, [
      { name: "ok.txt", bytes: "fine" },
      { name: "big.bin", bytes: new Uint8Array(1_001) },
    ]);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: "payload_too_large", message: expect.stringMatching(/^file\[1\]: /) });
    expect(attachmentRows(t)).toBe(0);
  });

  it("a file exactly at the limit is accepted", async () => {
    const [attachment] = await upload(t, { name: "edge.bin", bytes: new Uint8Array(1_000).fill(7) });
    expect(attachment.size_bytes).toBe(1_000);
  });

  it.each([
    ["an empty file", [{ name: "empty.txt", bytes: "" }], {}, /^file\[0\]: empty\.txt is empty/],
    ["no file part at all", [], {}, /^file: at least one file part/],
    ["a field that is not a file", [{ bytes: "x" }], { caption: "hi" }, /^caption: unknown form field/],
  ])("%s: 400 invalid_request", async (_, files, fields, message) => {
    const res = await uploadRaw(t, files as never, { fields });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request", message: expect.stringMatching(message) });
    expect(attachmentRows(t)).toBe(0);
  });

  it("a body that is not multipart: 415 unsupported_media_type", async () => {
    const res = await t.api("POST", "/v1/attachments", { body: { file: "x" } });
    expect(res.status).toBe(415);
    expect(res.body.error).toBe("unsupported_media_type");
  });

  it("multipart/form-data without a boundary: 400 invalid_request naming Content-Type", async () => {
    const res = await t.api("POST", "/v1/attachments", {
      body: "--xyz\r\n",
      headers: { "content-type": "multipart/form-data" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: "invalid_request",
      message: expect.stringMatching(/^Content-Type: .*boundary/i),
    });
    expect(attachmentRows(t)).toBe(0);
  });

  it("a malformed multipart body: 400 invalid_request", async () => {
    const res = await t.api("POST", "/v1/attachments", {
      body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunterminated',
      headers: { "content-type": "multipart/form-data; boundary=xyz" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: "invalid_request",
      message: expect.stringMatching(/^Malformed multipart body/),
    });
    expect(attachmentRows(t)).toBe(0);
  });
});
