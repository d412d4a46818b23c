import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchSandbox, type Sandbox } from "../../src/runtime/launch-sandbox.js";
import { expectRefused, guardedClient } from "../helpers/guarded-http.js";
import { KEY, OTP_KEY } from "../helpers/sandbox.js";

/**
 * The Origin check over real sockets on both hosts: a request whose Origin is present and is not
 * `http://H:P` (H an allowed host, P either host's port) is 403 `forbidden_origin` and changes
 * nothing, so a web page on another origin cannot drive the sandbox even with a key; the
 * sandbox's own pages can. No answer carries a CORS header.
 */

const portOf = (url: string) => Number(new URL(url).port);
const SEND = { to: "+14155550191", from_handle: "+14155550101", text: "from a web page" };

describe("the Origin check on both hosts", () => {
  const client = guardedClient();
  let sandbox: Sandbox;
  let port: number;
  let otpPort: number;

  beforeAll(async () => {
    sandbox = await launchSandbox({ clock: "manual", port: 0, otpPort: 0 });
    port = portOf(sandbox.baseUrl);
    otpPort = portOf(sandbox.otpUrl);
  });
  afterAll(async () => {
    const documents: Record<number, Record<string, any>> = {};
    for (const [p, app] of [
      [port, sandbox.messagingApp],
      [otpPort, sandbox.otpApp],
    ] as const)
      documents[p] = await (await app.request("/openapi.json")).json();
    await sandbox.stop();
    await client.checkAll(documents);
  });

  const sentCount = async () => {
    const list = await sandbox.messagingApp.request("/v1/messages", { headers: { authorization: `Bearer ${KEY}` } });
    return ((await list.json()).data as unknown[]).length;
  };

  const foreignOrigins = () => [
    ["another local dev server", "http://localhost:3000"],
    ["a public site", "https://evil.example"],
    ["a foreign name on the sandbox's own port", `http://evil.example:${port}`],
    ["https on the sandbox's own name and port", `https://localhost:${port}`],
    ["null (a sandboxed frame, a file: page)", "null"],
    ["an empty Origin", ""],
    ["not an origin at all", `http://localhost:${port}/path`],
  ];

  it("refuses a foreign Origin on GET and POST of the messaging host, before the key, and changes nothing", async () => {
    const before = await sentCount();
    for (const [what, origin] of foreignOrigins()) {
      const read = await client.send(port, { path: "/v1/numbers", host: `127.0.0.1:${port}`, origin, key: KEY });
      expectRefused(read, "forbidden_origin");
      const send = await client.send(port, {
        method: "POST",
        path: "/v1/messages",
        host: `localhost:${port}`,
        origin,
        key: KEY,
        body: SEND,
      });
      expectRefused(send, "forbidden_origin");
      expect(send.json.message, what).toContain(`Origin ${JSON.stringify(origin)}`);
      // Refused before the key is read: a wrong key is not what it hears about.
      const unkeyed = await client.send(port, { path: "/sandbox/v1/clock", host: "localhost", origin });
      expectRefused(unkeyed, "forbidden_origin");
    }
    expect(await sentCount()).toBe(before);
  });

  it("refuses a foreign Origin on the inspector page, its event stream, /openapi.json and /healthz", async () => {
    for (const path of ["/", "/sandbox/v1/activity/stream", "/openapi.json", "/healthz"]) {
      const answer = await client.send(port, { path, host: "localhost", origin: "http://localhost:3000", key: KEY });
      expectRefused(answer, "forbidden_origin");
      expect(answer.body).not.toContain("sk_test_");
    }
  });

  it("refuses a foreign Origin on the OTP host, GET and POST", async () => {
    const read = await client.send(otpPort, {
      path: "/sandbox/v1/clock",
      host: "localhost",
      origin: "http://localhost:3000",
      key: OTP_KEY,
    });
    expectRefused(read, "forbidden_origin");
    const create = await client.send(otpPort, {
      method: "POST",
      path: "/v1/challenges",
      host: "localhost",
      origin: "null",
      key: OTP_KEY,
      body: { phone_number: "+14155550123" },
    });
    expectRefused(create, "forbidden_origin");
  });

  it("answers the sandbox's own origins, on either host's port, GET and POST", async () => {
    const before = await sentCount();
    const own = [
      `http://127.0.0.1:${port}`,
      `http://localhost:${port}`,
      `http://LOCALHOST:${otpPort}`,
      `http://[::1]:${port}`,
      `http://app.localhost:${otpPort}`,
    ];
    for (const origin of own) {
      const read = await client.send(port, { path: "/v1/numbers", host: `localhost:${port}`, origin, key: KEY });
      expect(read.status, origin).toBe(200);
      const otp = await client.send(otpPort, { path: "/sandbox/v1/clock", host: "localhost", origin, key: OTP_KEY });
      expect(otp.status, origin).toBe(200);
    }
    const send = await client.send(port, {
      method: "POST",
      path: "/v1/messages",
      host: `127.0.0.1:${port}`,
      origin: `http://127.0.0.1:${port}`,
      key: KEY,
      body: SEND,
    });
    expect(send.status, send.body).toBe(202);
    expect(await sentCount()).toBe(before + 1);
  });

  it("the inspector's own requests work: the page, its event stream and a POST from its origin", async () => {
    const page = await client.send(port, { path: "/", host: `localhost:${port}` });
    expect(page.status).toBe(200);
    // Browsers send no Origin on a same-origin GET; the stream is read with fetch and the key.
    const stream = await client.send(port, {
      path: "/sandbox/v1/activity/stream",
      host: `localhost:${port}`,
      key: KEY,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers["content-type"]).toMatch(/^text\/event-stream/);
    const advance = await client.send(port, {
      method: "POST",
      path: "/sandbox/v1/clock/advance",
      host: `localhost:${port}`,
      origin: `http://localhost:${port}`,
      key: KEY,
      body: { ms: 5_000 },
    });
    expect(advance.status, advance.body).toBe(200);
  });

  it("answers its own origin on every kind of route, each without a CORS header (checked for every answer of this file)", async () => {
    const page = await client.send(port, { path: "/", host: `localhost:${port}`, origin: `http://localhost:${port}` });
    expect(page.status).toBe(200);
    const asset = /src="(\/inspector\/[^"]+\.js)"/.exec(page.body)?.[1] ?? "";
    for (const [p, path] of [
      [port, asset],
      [port, "/openapi.json"],
      [port, "/healthz"],
      [otpPort, "/openapi.json"],
      [otpPort, "/healthz"],
    ] as const) {
      const answer = await client.send(p, { path, host: "127.0.0.1", origin: `http://127.0.0.1:${port}` });
      expect(answer.status, path).toBe(200);
    }
  });

  it("a preflight from another origin gets no CORS answer: 403, and from its own origin a plain 405", async () => {
    const preflight = {
      method: "OPTIONS",
      path: "/v1/messages",
      host: `localhost:${port}`,
    };
    expectRefused(await client.send(port, { ...preflight, origin: "http://localhost:3000" }), "forbidden_origin");
    const own = await client.send(port, { ...preflight, origin: `http://localhost:${port}` });
    expect(own.status).toBe(405);
  });
});
