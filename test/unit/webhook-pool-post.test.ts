import { getEventListeners } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DeliveryConnections, postOverPool } from "../../src/domain/webhooks/index.js";

/** A loopback receiver whose answer each test sets; counts the connections it accepted. */
let server: Server;
let url: string;
let connections = 0;
let answer: (req: IncomingMessage, res: ServerResponse) => void;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => answer(req, res));
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

let pools: DeliveryConnections;
afterEach(async () => {
  await pools.close();
  connections = 0;
});

const post = (signal: AbortSignal, timeoutMs = 10_000) =>
  postOverPool(pools, { url, body: "{}", headers: { "content-type": "application/json" }, timeoutMs, signal });

describe("one POST over an endpoint's kept-alive connections (spec section 6 delivery rule 1)", () => {
  it("any 2xx acknowledges, other statuses do not, a redirect is not followed; bodies are read and the connection kept", async () => {
    pools = new DeliveryConnections();
    const signal = new AbortController().signal;
    answer = (_req, res) => res.writeHead(204).end();
    expect(await post(signal)).toEqual({ acknowledged: true, statusCode: 204, error: null, aborted: false });
    answer = (_req, res) => res.writeHead(500).end("a body to drain");
    expect(await post(signal)).toEqual({
      acknowledged: false,
      statusCode: 500,
      error: "receiver answered 500",
      aborted: false,
    });
    answer = (_req, res) => res.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" }).end();
    expect(await post(signal)).toMatchObject({
      acknowledged: false,
      statusCode: 302,
      error: "redirect to http://127.0.0.1:1/elsewhere not followed",
    });
    // undici lets an idle socket rest one turn before reusing it: back-to-back POSTs take turns
    // on two kept-alive connections, never one each.
    expect(connections).toBeLessThanOrEqual(2);
  });

  it("a 4xx answer's first line goes into the error: what the app said when it refused the delivery", async () => {
    pools = new DeliveryConnections();
    const signal = new AbortController().signal;
    answer = (_req, res) => res.writeHead(400).end("\n  invalid signature\r\nstack: at verify()\n");
    expect(await post(signal)).toEqual({
      acknowledged: false,
      statusCode: 400,
      error: "receiver answered 400: invalid signature",
      aborted: false,
    });
    answer = (_req, res) => res.writeHead(401).end();
    expect((await post(signal)).error).toBe("receiver answered 401");
    answer = (_req, res) => res.writeHead(422).end(`${"x".repeat(5_000)}\n`);
    const long = (await post(signal)).error ?? "";
    expect(long).toBe(`receiver answered 422: ${"x".repeat(199)}…`);
    // A 5xx is the app failing, not refusing: its body stays out.
    answer = (_req, res) => res.writeHead(503).end("upstream down");
    expect((await post(signal)).error).toBe("receiver answered 503");
  });

  it("a body over 64 KiB does not change the outcome; its connection is closed instead of drained", async () => {
    pools = new DeliveryConnections();
    const signal = new AbortController().signal;
    let socket: Socket | undefined;
    answer = (req, res) => {
      socket = req.socket;
      // The client closes mid-body: the reset is expected here.
      socket.on("error", () => {});
      res.on("error", () => {});
      res.writeHead(200).end(Buffer.alloc(4 * 1024 * 1024, 97));
    };
    expect(await post(signal)).toMatchObject({ acknowledged: true, statusCode: 200 });
    const closing = socket as Socket;
    if (!closing.closed) await new Promise((resolve) => closing.once("close", resolve));
    expect(socket?.closed).toBe(true);
  });

  it("no status within the window is a failed attempt", async () => {
    pools = new DeliveryConnections();
    answer = () => {};
    expect(await post(new AbortController().signal, 50)).toEqual({
      acknowledged: false,
      statusCode: null,
      error: "no response within 50 ms",
      aborted: false,
    });
  });

  it("a stop aborts every POST in flight, reported as aborted; one listener on the signal serves them all", async () => {
    pools = new DeliveryConnections();
    const stop = new AbortController();
    answer = () => {};
    const inFlight = Array.from({ length: 5 }, () => post(stop.signal));
    await new Promise((resolve) => setImmediate(resolve));
    expect(getEventListeners(stop.signal, "abort")).toHaveLength(1);
    stop.abort();
    for (const outcome of await Promise.all(inFlight))
      expect(outcome).toMatchObject({ aborted: true, error: "aborted" });
  });
});

describe("a POST undici refuses outright", () => {
  it("is a failed attempt, not a thrown error", async () => {
    pools = new DeliveryConnections();
    const outcome = await postOverPool(pools, {
      url,
      body: "{}",
      headers: { "x-bad": "line\nbreak" },
      timeoutMs: 1_000,
      signal: new AbortController().signal,
    });
    expect(outcome).toMatchObject({ acknowledged: false, statusCode: null, aborted: false });
    expect(outcome.error).toMatch(/^request failed: /);
  });
});
