import { describe, expect, it } from "vitest";
import { rawRequest, type RawAnswer } from "../helpers/raw-http.js";
import { KEY, useSandbox } from "../helpers/sandbox.js";

/** The error shape with a request id matching X-Request-Id (spec section 7). */
function expectErrorShape(answer: RawAnswer, status: number, code: string) {
  expect(answer.reset, answer.raw.slice(0, 200)).toBe(false);
  expect(answer.status, answer.raw.slice(0, 300)).toBe(status);
  const body = JSON.parse(answer.body);
  expect(body).toEqual({
    error: code,
    message: expect.any(String),
    request_id: expect.stringMatching(/^req_[0-9a-f]{24}$/),
  });
  expect(answer.headers["x-request-id"]).toBe(body.request_id);
  expect(answer.headers["content-type"]).toMatch(/^application\/json/);
}

const get = (target: string, headers = "") =>
  `GET ${target} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\n${headers}Connection: close\r\n\r\n`;

describe("requests node refuses before the app still get the spec's error shape (spec section 7)", () => {
  const t = useSandbox({ socket: true });
  const port = () => Number(new URL(t.sandbox.baseUrl).port);

  it("a URL over the 16 KiB header limit: 431 request_too_large", async () => {
    expectErrorShape(
      await rawRequest(port(), get(`/v1/messages?before=${"x".repeat(20_000)}`)),
      431,
      "request_too_large",
    );
  });

  it("a 70 KB Authorization header: 431, answered rather than reset while the client still writes", async () => {
    const request = `GET /v1/numbers HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${"a".repeat(70_000)}\r\nConnection: close\r\n\r\n`;
    expectErrorShape(await rawRequest(port(), request), 431, "request_too_large");
  });

  it("thousands of small headers over the limit: 431", async () => {
    const many = Array.from({ length: 3_000 }, (_, i) => `X-H${i}: v\r\n`).join("");
    expectErrorShape(await rawRequest(port(), get("/v1/numbers", many)), 431, "request_too_large");
  });

  it.each([
    ["an unknown method token", "BREW /v1/numbers HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["a lower-case method", "get /v1/numbers HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["an unknown HTTP version", "GET /v1/numbers HTTP/9.9\r\nHost: x\r\n\r\n"],
    ["garbage", "\u0000\u0001\u0002 hello\r\n\r\n"],
    ["a control character in the path", "GET /v1/num\u0001bers HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["a Content-Length that is not a number", "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"],
    ["a broken chunked body", "POST /v1/messages HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"],
    ["a header without a colon", "GET /v1/numbers HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n"],
  ])("malformed HTTP (%s): 400 invalid_request", async (_what, request) => {
    const answer = await rawRequest(port(), request);
    expectErrorShape(answer, 400, "invalid_request");
    expect(JSON.parse(answer.body).message).toMatch(/^Malformed HTTP request \(.+\)$/);
  });

  it("CONNECT: 405 method_not_allowed instead of a dropped connection", async () => {
    expectErrorShape(
      await rawRequest(port(), "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"),
      405,
      "method_not_allowed",
    );
  });

  it("an Expect header other than 100-continue reaches the app (no bare 417)", async () => {
    const answer = await rawRequest(port(), get("/v1/numbers", "Expect: teapot\r\n"));
    expect(answer.status).toBe(200);
    expect(answer.headers["x-request-id"]).toMatch(/^req_/);
  });

  it("a request without a Host header gets an answer (no bare 400): /healthz answers any Host, or none", async () => {
    const answer = await rawRequest(port(), "GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).data).toEqual({ status: "ok" });
  });

  it.each([
    ["a declared length over 1 MiB", (body: Buffer) => `Content-Length: ${body.length}`],
    ["a chunked body that grows over 1 MiB", () => "Transfer-Encoding: chunked"],
  ])("%s: 413 reaches a client that reads only after writing all of it (no reset)", async (_what, header) => {
    const body = Buffer.alloc(12 * 1024 * 1024, "x"); // more than loopback socket buffers hold
    const framed = header(body).startsWith("Transfer")
      ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from("\r\n0\r\n\r\n")])
      : body;
    const head = `POST /v1/messages HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\n${header(body)}\r\n\r\n`;
    const answer = await rawRequest(port(), Buffer.concat([Buffer.from(head), framed]), 10_000, {
      readAfterWriting: true,
    });
    expectErrorShape(answer, 413, "payload_too_large");
  });

  it.each(["/sandbox/v1/events/stream", "/sandbox/v1/deliveries/stream"])(
    "the event stream %s carries an X-Request-Id like every answer",
    async (path) => {
      const answer = await rawRequest(port(), get(path));
      expect(answer.status).toBe(200);
      expect(answer.headers["content-type"]).toMatch(/^text\/event-stream/);
      expect(answer.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{24}$/);
    },
  );

  it("the host stays up and answers /healthz after all of the above", async () => {
    const answer = await rawRequest(port(), "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(answer.status).toBe(200);
  });
});
