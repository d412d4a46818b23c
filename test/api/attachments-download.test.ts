import { describe, expect, it } from "vitest";
import { pathOf, raw, upload, withParam } from "../helpers/attachments.js";
import { resetBeforeEach } from "../helpers/messages.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";

const BYTES = Uint8Array.from({ length: 1_000 }, (_, i) => i % 251);

async function fetchUrl(t: TestSandbox, url: string, headers: Record<string, string> = {}, method = "GET") {
  const res = await raw(t, pathOf(url), { method, headers });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, json: () => JSON.parse(body.toString("utf8")) };
}

describe("signed download URLs (spec 2 `url`, docs/attachments.md)", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("serve the bytes without a key: content-type, content-length, content-disposition with the filename", async () => {
    const [attachment] = await upload(t, { name: "data élan.bin", bytes: BYTES });
    const res = await fetchUrl(t, attachment.url);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(Buffer.from(BYTES));
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-length")).toBe("1000");
    expect(res.headers.get("content-disposition")).toBe(
      `inline; filename="data _lan.bin"; filename*=UTF-8''data%20%C3%A9lan.bin`,
    );
    expect(res.headers.get("accept-ranges")).toBe("bytes");
  });

  it.each([
    ["bytes=0-99", 0, 99],
    ["bytes=900-", 900, 999],
    ["bytes=-10", 990, 999],
    ["bytes=950-5000", 950, 999],
  ])("answer a range request %s with 206 and Content-Range", async (range, start, end) => {
    const [attachment] = await upload(t, { bytes: BYTES });
    const res = await fetchUrl(t, attachment.url, { range });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes ${start}-${end}/1000`);
    expect(res.headers.get("content-length")).toBe(String(end - start + 1));
    expect(res.body).toEqual(Buffer.from(BYTES.subarray(start, end + 1)));
  });

  it("a range past the end: 416 in the error shape with Content-Range bytes */size", async () => {
    const [attachment] = await upload(t, { bytes: BYTES });
    const res = await fetchUrl(t, attachment.url, { range: "bytes=1000-" });
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBe("bytes */1000");
    expect(res.json()).toMatchObject({ error: "range_not_satisfiable", request_id: expect.any(String) });
  });

  it("If-Range: the range when it names the file's ETag, the whole file (200) when not or when it is a date", async () => {
    const [attachment] = await upload(t, { bytes: BYTES });
    const etag = (await fetchUrl(t, attachment.url, {}, "HEAD")).headers.get("etag") as string;
    expect((await fetchUrl(t, attachment.url, { range: "bytes=2-4", "if-range": etag })).status).toBe(206);
    for (const other of ['"nope"', `W/${etag}`, "Wed, 21 Oct 2015 07:28:00 GMT"]) {
      const res = await fetchUrl(t, attachment.url, { range: "bytes=2-4", "if-range": other });
      expect(res.status, other).toBe(200);
      expect(res.body.length).toBe(1_000);
    }
  });

  it("an empty suffix range (bytes=-0): 416 saying the file's size", async () => {
    const [attachment] = await upload(t, { bytes: BYTES });
    const res = await fetchUrl(t, attachment.url, { range: "bytes=-0" });
    expect(res.status).toBe(416);
    expect(res.json().message).toBe("Range bytes=-0 is not satisfiable: the file has 1000 bytes");
  });

  it("a range syntax not served (several ranges) gets the whole file", async () => {
    const [attachment] = await upload(t, { bytes: BYTES });
    const res = await fetchUrl(t, attachment.url, { range: "bytes=0-1,5-6" });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(1_000);
  });

  it("HEAD answers the headers only", async () => {
    const [attachment] = await upload(t, { bytes: BYTES });
    const res = await fetchUrl(t, attachment.url, {}, "HEAD");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe("1000");
    expect(res.body.length).toBe(0);
  });

  it.each([
    ["signature", (url: string) => withParam(url, "signature", "f".repeat(64))],
    [
      "expires pushed later",
      (url: string) => withParam(url, "expires", String(Number(new URL(url).searchParams.get("expires")) + 86_400)),
    ],
    [
      "another attachment's id",
      (url: string) => url.replace(/\/media\/[0-9a-f-]+/, "/media/7d0c8a3e-1111-4111-8111-111111111111"),
    ],
    ["no signature", (url: string) => url.split("&signature=")[0] as string],
    ["a malformed id", (url: string) => url.replace(/\/media\/[0-9a-f-]+/, "/media/nope")],
  ])("refuse a tampered URL (%s): 403 forbidden in the error shape", async (_, tamper) => {
    const [attachment] = await upload(t, { bytes: BYTES });
    const res = await fetchUrl(t, tamper(attachment.url));
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({
      error: "forbidden",
      message: expect.stringMatching(/signature does not match/),
      request_id: expect.any(String),
    });
  });

  it("last one hour on the sandbox clock: 403 after, and GET /v1/attachments/:id gives a fresh one", async () => {
    const [attachment] = await upload(t, { bytes: BYTES });
    await t.advance(59 * 60_000);
    expect((await fetchUrl(t, attachment.url)).status).toBe(200);
    await t.advance(60_000 + 1_000);
    const expired = await fetchUrl(t, attachment.url);
    expect(expired.status).toBe(403);
    expect(expired.json()).toMatchObject({ error: "forbidden", message: expect.stringMatching(/expired/) });
    const fresh = (await t.api("GET", `/v1/attachments/${attachment.id}`)).body.data;
    expect((await fetchUrl(t, fresh.url)).status).toBe(200);
    expect(Date.parse(fresh.url_expires_at) - t.sandbox.ctx.clock.now()).toBeGreaterThanOrEqual(3_600_000);
  });

  it("an attachment whose presigned PUT has not landed: 409 invalid_state", async () => {
    const presigned = (
      await t.api("POST", "/v1/attachments/presign", { body: { filename: "a.png", content_type: "image/png" } })
    ).body.data;
    const attachment = (await t.api("GET", `/v1/attachments/${presigned.id}`)).body.data;
    const res = await fetchUrl(t, attachment.url);
    expect(res.status).toBe(409);
    expect(res.json().error).toBe("invalid_state");
  });

  it("after a reset the old URLs no longer work (a new signing key)", async () => {
    const [attachment] = await upload(t, { bytes: BYTES });
    await t.sandbox.control.reset();
    expect((await fetchUrl(t, attachment.url)).status).toBe(403);
  });
});
