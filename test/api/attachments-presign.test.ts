import { describe, expect, it } from "vitest";
import { pathOf, raw, withParam } from "../helpers/attachments.js";
import { IPHONE, MAIN, resetBeforeEach } from "../helpers/messages.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";

/** POST /v1/attachments/presign that must succeed. */
async function presign(
  t: TestSandbox,
  body: Record<string, unknown> = { filename: "photo.png", content_type: "image/png" },
) {
  const res = await t.api("POST", "/v1/attachments/presign", { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** PUT bytes to a presigned URL, with no key. */
async function put(t: TestSandbox, url: string, bytes: Uint8Array | string, headers: Record<string, string>) {
  const res = await raw(t, pathOf(url), {
    method: "PUT",
    headers,
    body: typeof bytes === "string" ? bytes : new Uint8Array(bytes),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const pngBytes = async () => {
  const sharp = (await import("sharp")).default;
  return sharp({ create: { width: 8, height: 8, channels: 3, background: "#0a0" } })
    .png()
    .toBuffer();
};

describe("POST /v1/attachments/presign and the PUT (spec 4.2)", () => {
  const t = useSandbox({ settings: { maxUploadBytes: 2_000 } });
  resetBeforeEach(t);

  it("answers 201 { id, upload_url, method: PUT, headers with content-type }", async () => {
    const res = await t.api("POST", "/v1/attachments/presign", {
      body: { filename: "photo.png", content_type: "image/png" },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      upload_url: expect.stringMatching(/\/uploads\/[0-9a-f-]{36}\?expires=\d+&signature=[0-9a-f]{64}$/),
      method: "PUT",
      headers: { "content-type": "image/png" },
      expires_at: expect.any(String),
    });
  });

  it("round trip: PUT the bytes with the headers and no key, then the attachment is uploaded and downloadable", async () => {
    const presigned = await presign(t);
    const pending = (await t.api("GET", `/v1/attachments/${presigned.id}`)).body.data;
    expect(pending).toMatchObject({ status: "pending_upload", size_bytes: 0, filename: "photo.png" });

    const bytes = await pngBytes();
    const landed = await put(t, presigned.upload_url, bytes, presigned.headers);
    expect(landed.status).toBe(200);
    expect(landed.body.data).toMatchObject({
      id: presigned.id,
      status: "uploaded",
      mime_type: "image/png",
      size_bytes: bytes.length,
    });

    const download = await raw(t, pathOf(landed.body.data.url));
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
  });

  it("the sniffed type replaces the presigned one once the bytes land", async () => {
    const presigned = await presign(t, { filename: "notes.bin", content_type: "application/octet-stream" });
    const landed = await put(t, presigned.upload_url, "just text", presigned.headers);
    expect(landed.body.data.mime_type).toBe("text/plain");
  });

  it("until the PUT lands the attachment cannot be sent: 400 invalid_attachments", async () => {
    const presigned = await presign(t);
    const res = await t.api("POST", "/v1/messages", {
      body: { to: IPHONE, from_handle: MAIN, attachment_ids: [presigned.id] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: "invalid_attachments",
      message: expect.stringMatching(/has no bytes yet: PUT them to its upload_url/),
    });
    await put(t, presigned.upload_url, await pngBytes(), presigned.headers);
    const sent = await t.api("POST", "/v1/messages", {
      body: { to: IPHONE, from_handle: MAIN, attachment_ids: [presigned.id] },
    });
    expect(sent.status).toBe(202);
  });

  it("a different content-type: 400 invalid_request naming content-type; the URL still works after", async () => {
    const presigned = await presign(t);
    const wrong = await put(t, presigned.upload_url, await pngBytes(), { "content-type": "image/jpeg" });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      error: "invalid_request",
      message: expect.stringMatching(/^content-type: this upload URL was signed for image\/png/),
    });
    expect((await put(t, presigned.upload_url, await pngBytes(), presigned.headers)).status).toBe(200);
  });

  it("a media type with parameters: signed as the presign named it, the PUT may spell it otherwise", async () => {
    const presigned = await presign(t, { filename: "notes.txt", content_type: "Text/Plain;Charset=utf-8" });
    expect(presigned.headers).toEqual({ "content-type": "text/plain; charset=utf-8" });
    expect((await t.api("GET", `/v1/attachments/${presigned.id}`)).body.data.mime_type).toBe("text/plain");
    const other = await put(t, presigned.upload_url, "hello", { "content-type": "text/plain; charset=latin1" });
    expect(other.body).toMatchObject({
      error: "invalid_request",
      message: expect.stringMatching(/^content-type: this upload URL was signed for text\/plain; charset=utf-8/),
    });
    expect((await put(t, presigned.upload_url, "hello", { "content-type": "text/plain ;charset=utf-8" })).status).toBe(
      200,
    );
  });

  it.each([
    ["signature", (url: string) => withParam(url, "signature", "0".repeat(64))],
    [
      "expires",
      (url: string) => withParam(url, "expires", String(Number(new URL(url).searchParams.get("expires")) + 3600)),
    ],
    // Another id: its first hex digit changed (to one it is not, so the URL always differs).
    [
      "id",
      (url: string) =>
        url.replace(/\/uploads\/([0-9a-f])/, (_, digit: string) => `/uploads/${digit === "0" ? "1" : "0"}`),
    ],
    ["missing signature", (url: string) => url.replace(/&signature=.*/, "")],
  ])("a tampered URL (%s): 403 forbidden in the error shape", async (_, tamper) => {
    const presigned = await presign(t);
    const res = await put(t, tamper(presigned.upload_url), await pngBytes(), presigned.headers);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      error: "forbidden",
      message: expect.stringMatching(/signature does not match/),
      request_id: expect.any(String),
    });
  });

  it("expires on the sandbox clock after 15 minutes: 403", async () => {
    const presigned = await presign(t);
    await t.advance(15 * 60_000 - 1_000);
    const early = await presign(t);
    await t.advance(1_000);
    expect((await put(t, presigned.upload_url, await pngBytes(), presigned.headers)).status).toBe(200);
    await t.advance(15 * 60_000 + 1_000);
    const late = await put(t, early.upload_url, await pngBytes(), early.headers);
    expect(late.status).toBe(403);
    expect(late.body.message).toMatch(/expired/);
  });

  it("a second PUT to the same URL: 409 invalid_state, the first bytes stay", async () => {
    const presigned = await presign(t);
    const first = await pngBytes();
    await put(t, presigned.upload_url, first, presigned.headers);
    const second = await put(t, presigned.upload_url, "other bytes", presigned.headers);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ error: "invalid_state", message: expect.stringMatching(/already uploaded/) });
    const attachment = (await t.api("GET", `/v1/attachments/${presigned.id}`)).body.data;
    expect(attachment.size_bytes).toBe(first.length);
  });

  it("a PUT over the upload limit: 413 payload_too_large; an empty one 400; the URL still works after", async () => {
    const presigned = await presign(t);
    const big = await put(t, presigned.upload_url, new Uint8Array(2_001), presigned.headers);
    expect(big.status).toBe(413);
    expect(big.body.error).toBe("payload_too_large");
    const empty = await put(t, presigned.upload_url, "", presigned.headers);
    expect(empty.status).toBe(400);
    expect((await t.api("GET", `/v1/attachments/${presigned.id}`)).body.data.status).toBe("pending_upload");
    expect((await put(t, presigned.upload_url, await pngBytes(), presigned.headers)).status).toBe(200);
  });

  it.each([
    [{}, /^filename: /],
    [{ filename: "a.png" }, /^content_type: /],
    [{ filename: "a.png", content_type: "png" }, /^content_type: must be a media type/],
    [{ filename: "a.png", content_type: "image/png; charset" }, /^content_type: must be a media type/],
    [{ filename: "a.png", content_type: "image/png;" }, /^content_type: must be a media type/],
    [{ filename: "", content_type: "image/png" }, /^filename: must not be empty/],
    [{ filename: "x".repeat(1_025), content_type: "image/png" }, /^filename: must be at most 1024/],
    [{ filename: "a.png", content_type: "image/png", size: 3 }, /unrecognized|size/i],
  ])("presign body %j: 400 invalid_request naming the field", async (body, message) => {
    const res = await t.api("POST", "/v1/attachments/presign", { body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request", message: expect.stringMatching(message) });
  });

  it("presign sanitises the filename", async () => {
    const presigned = await presign(t, { filename: "../secret/\u0007bell.png", content_type: "image/png" });
    expect((await t.api("GET", `/v1/attachments/${presigned.id}`)).body.data.filename).toBe("bell.png");
  });
});
