import { describe, expect, it } from "vitest";
import { KEY, useSandbox } from "../helpers/sandbox.js";

const errorShape = (code: string) => ({
  error: code,
  message: expect.any(String),
  request_id: expect.stringMatching(/^req_[0-9a-f]{24}$/),
});

for (const socket of [false, true]) {
  describe(`conventions of spec section 1 (${socket ? "over a socket" : "in-process"})`, () => {
    const t = useSandbox({ socket });

    describe("envelope and request ids", () => {
      it("wraps a resource as { data, request_id } with X-Request-Id equal to request_id", async () => {
        const res = await t.api("GET", "/sandbox/v1/clock");
        expect(Object.keys(res.body)).toEqual(["data", "request_id"]);
        expect(res.headers.get("x-request-id")).toBe(res.body.request_id);
        expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      });

      it("adds has_more to lists", async () => {
        const res = await t.api("GET", "/v1/numbers");
        expect(Object.keys(res.body)).toEqual(["data", "has_more", "request_id"]);
      });

      it("gives every request its own id", async () => {
        const ids = new Set<string>();
        for (let i = 0; i < 5; i++) ids.add((await t.api("GET", "/v1/numbers")).body.request_id);
        expect(ids.size).toBe(5);
      });

      it("writes timestamps as ISO 8601 with milliseconds in UTC", async () => {
        const res = await t.api("GET", "/sandbox/v1/clock");
        expect(res.body.data.now).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      });
    });

    describe("errors: { error, message, request_id } with X-Request-Id", () => {
      it("unknown path: 404 not_found", async () => {
        const res = await t.api("GET", "/v1/nothing-here");
        expect(res.status).toBe(404);
        expect(res.body).toEqual(errorShape("not_found"));
        expect(res.headers.get("x-request-id")).toBe(res.body.request_id);
      });

      it("unknown path without a key: still 404 with the shape", async () => {
        const res = await t.api("GET", "/nope", { key: null });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(errorShape("not_found"));
      });

      it("wrong method on a known path: 405 method_not_allowed with Allow", async () => {
        const res = await t.api("DELETE", "/v1/numbers");
        expect(res.status).toBe(405);
        expect(res.body).toEqual(errorShape("method_not_allowed"));
        expect(res.headers.get("allow")).toBe("GET, HEAD");
      });

      it("HEAD on a GET route: the GET's status and headers, no body", async () => {
        const get = await t.api("GET", "/v1/numbers");
        const head = await t.api("HEAD", "/v1/numbers");
        expect(head.status).toBe(200);
        expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
        expect(head.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
        if (socket) expect(head.body).toBeUndefined();
      });

      it("HEAD answers the GET's errors: 401 without a key, 404 for an unknown id, 400 for a bad query", async () => {
        expect((await t.api("HEAD", "/v1/numbers", { key: null })).status).toBe(401);
        expect((await t.api("HEAD", "/v1/messages/msg_nothing")).status).toBe(404);
        expect((await t.api("HEAD", "/v1/messages?limit=0")).status).toBe(400);
        expect((await t.otp("HEAD", "/v1/challenges/otp_nothing")).status).toBe(404);
      });

      it("HEAD on a path without GET is 405 with Allow", async () => {
        const res = await t.api("HEAD", "/v1/attachments/presign");
        expect(res.status).toBe(405);
        expect(res.headers.get("allow")).toBe("POST");
      });

      it("malformed JSON: 400 invalid_request, and nothing changes", async () => {
        const before = (await t.api("GET", "/sandbox/v1/clock")).body.data.now;
        const res = await t.api("POST", "/sandbox/v1/clock/advance", { body: '{"duration": "1h"' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errorShape("invalid_request"));
        expect((await t.api("GET", "/sandbox/v1/clock")).body.data.now).toBe(before);
      });

      it("wrong content type: 415 unsupported_media_type", async () => {
        const res = await t.api("POST", "/sandbox/v1/clock/advance", {
          body: '{"duration":"1h"}',
          headers: { "content-type": "text/plain" },
        });
        expect(res.status).toBe(415);
        expect(res.body).toEqual(errorShape("unsupported_media_type"));
      });

      it("a field that breaks a rule: 400 invalid_request naming the field", async () => {
        const res = await t.api("POST", "/sandbox/v1/clock/advance", { body: { ms: -5 } });
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(/ms/);
      });

      it("JSON body over 1 MiB: 413 payload_too_large", async () => {
        const body = JSON.stringify({ duration: "1s", pad: "x".repeat(1024 * 1024) });
        const res = await t.api("POST", "/sandbox/v1/clock/advance", { body });
        expect(res.status).toBe(413);
        expect(res.body).toEqual(errorShape("payload_too_large"));
      });

      it("a JSON body of exactly 1 MiB is read (the limit is inclusive)", async () => {
        const prefix = '{"duration":"1s","pad":"';
        const body = `${prefix}${"x".repeat(1024 * 1024 - prefix.length - 2)}"}`;
        expect(Buffer.byteLength(body)).toBe(1024 * 1024);
        const res = await t.api("POST", "/sandbox/v1/clock/advance", { body });
        expect(res.status).toBe(400); // read and parsed: `pad` is not a known field
        expect(res.body.error).toBe("invalid_request");
      });
    });
  });
}

describe("oversized bodies without a declared length", () => {
  const t = useSandbox({ socket: true });

  it("are cut off at 1 MiB while streaming: 413", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 40) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(`${t.sandbox.baseUrl}/sandbox/v1/clock/advance`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe("payload_too_large");
  });
});
