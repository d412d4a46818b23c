import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchSandbox, type Sandbox } from "../../src/runtime/launch-sandbox.js";
import { expectRefused, guardedClient } from "../helpers/guarded-http.js";
import { KEY, OTP_KEY } from "../helpers/sandbox.js";

/**
 * Who may talk to the sandbox, by the Host header, over real sockets on both hosts: only its own
 * names are answered, so a web page on a domain re-resolved to 127.0.0.1 (DNS rebinding) gets 403
 * `forbidden_host` everywhere, before any key is read; GET /healthz alone answers any Host.
 */

const FOREIGN = "evil.example";
const portOf = (url: string) => Number(new URL(url).port);
/** Bodies that would succeed from an allowed Host: refused, they must change nothing. */
const BODIES: Record<string, unknown> = {
  "/v1/messages": { to: "+14155550191", from_handle: "+14155550101", text: "from a rebound page" },
  "/sandbox/v1/clock/advance": { ms: 3_600_000 },
};

describe("the Host allowlist on both hosts", () => {
  const client = guardedClient();
  let sandbox: Sandbox;
  let port: number;
  let otpPort: number;
  let asset: string;

  beforeAll(async () => {
    sandbox = await launchSandbox({ clock: "manual", port: 0, otpPort: 0 });
    port = portOf(sandbox.baseUrl);
    otpPort = portOf(sandbox.otpUrl);
    const page = await client.send(port, { path: "/", host: `127.0.0.1:${port}` });
    asset = /src="\/inspector\/([^"]+\.js)"/.exec(page.body)?.[1] ?? "";
    expect(asset, "the built page names its script").not.toBe("");
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

  const messagingRoutes = () => [
    ["the spec API", "GET", "/v1/numbers"],
    ["the spec API (a send)", "POST", "/v1/messages"],
    ["the control API", "GET", "/sandbox/v1/clock"],
    ["the control API (an action)", "POST", "/sandbox/v1/clock/advance"],
    ["the inspector page", "GET", "/"],
    ["an inspector asset", "GET", `/inspector/${asset}`],
    ["the inspector's event stream", "GET", "/sandbox/v1/activity/stream"],
    ["the event stream", "GET", "/sandbox/v1/events/stream"],
    ["the OpenAPI document", "GET", "/openapi.json"],
    ["a path that is no route", "GET", "/nothing-here"],
    ["a HEAD of the page", "HEAD", "/"],
    ["another method on /healthz", "POST", "/healthz"],
  ];

  it("refuses a foreign Host on every kind of route of the messaging host, key or none, with nothing done", async () => {
    const before = sandbox.ctx.clock.now();
    for (const [what, method, path] of messagingRoutes()) {
      for (const host of [FOREIGN, `${FOREIGN}:${port}`]) {
        const answer = await client.send(port, {
          method,
          path: path as string,
          host,
          key: KEY,
          body: BODIES[path as string],
        });
        if (method === "HEAD") {
          // Node sends a HEAD answer's head only: the status and the request id.
          expect(answer.status, what).toBe(403);
          expect(answer.headers["x-request-id"]).toMatch(/^req_/);
        } else expectRefused(answer, "forbidden_host");
        expect(answer.body, `${what}: no page or key in the answer`).not.toContain("sk_test_");
      }
    }
    expect(sandbox.ctx.clock.now(), "the clock did not move").toBe(before);
    const sent = await sandbox.messagingApp.request("/v1/messages", { headers: { authorization: `Bearer ${KEY}` } });
    expect((await sent.json()).data).toEqual([]);
  });

  it("refuses a foreign Host on the OTP host: the spec API, the control API, the event stream, /openapi.json", async () => {
    for (const [method, path] of [
      ["POST", "/v1/challenges"],
      ["GET", "/v1/challenges/00000000-0000-0000-0000-000000000000"],
      ["GET", "/sandbox/v1/clock"],
      ["GET", "/sandbox/v1/events/stream"],
      ["GET", "/openapi.json"],
    ] as const) {
      const answer = await client.send(otpPort, {
        method,
        path,
        host: `${FOREIGN}:${otpPort}`,
        key: OTP_KEY,
        body: method === "POST" ? { phone_number: "+14155550123" } : undefined,
      });
      expectRefused(answer, "forbidden_host");
    }
  });

  it("says which name was refused and how to allow it", async () => {
    const answer = await client.send(port, { path: "/v1/numbers", host: `Sandbox.Test:${port}`, key: KEY });
    expectRefused(answer, "forbidden_host");
    expect(answer.json.message).toContain(`Host "Sandbox.Test:${port}" is not a name of this sandbox`);
    expect(answer.json.message).toContain("start it with --allowed-hosts sandbox.test");
  });

  it("refuses a request with no Host header at all (HTTP/1.0), on both hosts", async () => {
    for (const p of [port, otpPort]) {
      const answer = await client.send(p, { path: "/openapi.json", host: null });
      expectRefused(answer, "forbidden_host");
      expect(answer.json.message).toMatch(/no Host header/);
    }
    const legacy = await client.send(port, { path: "/", host: null, method: "GET" });
    expectRefused(legacy, "forbidden_host");
  });

  it("GET /healthz answers any Host, or none, on both hosts (container health checks by service name)", async () => {
    for (const p of [port, otpPort]) {
      for (const host of [FOREIGN, "sandbox:4010", "", null]) {
        const answer = await client.send(p, { path: "/healthz", host });
        expect(answer.status, `Host ${host}`).toBe(200);
        expect(answer.json.data).toEqual({ status: "ok" });
      }
      const head = await client.send(p, { method: "HEAD", path: "/healthz?probe=1", host: FOREIGN });
      expect(head.status).toBe(200);
    }
  });

  it.each([
    ["localhost", "localhost"],
    ["localhost with a port", "localhost:PORT"],
    ["upper case", "LOCALHOST:PORT"],
    ["a trailing dot", "localhost.:PORT"],
    ["a name under .localhost", "inspector.app.localhost:PORT"],
    ["127.0.0.1", "127.0.0.1:PORT"],
    ["another address of 127.0.0.0/8", "127.42.0.9"],
    ["[::1]", "[::1]:PORT"],
    ["[::1] written long", "[0:0:0:0:0:0:0:1]"],
    ["another port", "localhost:1"],
  ])("answers %s on both hosts", async (_what, host) => {
    const spec = await client.send(port, { path: "/v1/numbers", host: host.replace("PORT", String(port)), key: KEY });
    expect(spec.status, spec.body).toBe(200);
    const otp = await client.send(otpPort, {
      path: "/sandbox/v1/clock",
      host: host.replace("PORT", String(otpPort)),
      key: OTP_KEY,
    });
    expect(otp.status, otp.body).toBe(200);
  });

  it.each([
    ["a name that only starts like localhost", "localhost.evil.example"],
    ["a name that ends like localhost", "evillocalhost"],
    ["a DNS name that embeds 127.0.0.1", "127.0.0.1.nip.io"],
    ["the unspecified address (not what it listens on)", "0.0.0.0"],
    ["an IPv4-mapped IPv6 loopback", "[::ffff:127.0.0.1]"],
    ["a short IPv4 form browsers never send", "127.1"],
    ["an empty Host", ""],
    ["a Host with user info", "user@localhost"],
    ["a Host whose port is empty", "localhost:"],
    ["a Host over 100 characters", `${"a".repeat(300)}.example`],
  ])("refuses %s", async (_what, host) => {
    const answer = await client.send(port, { path: "/v1/numbers", host, key: KEY });
    expectRefused(answer, "forbidden_host");
    expect(answer.json.message.length).toBeLessThan(500);
  });
});

describe("allowedHosts (startSandbox, serve --allowed-hosts)", () => {
  const client = guardedClient();
  let sandbox: Sandbox;
  let port: number;
  let otpPort: number;

  beforeAll(async () => {
    sandbox = await launchSandbox({
      clock: "manual",
      port: 0,
      otpPort: 0,
      allowedHosts: ["Sandbox.Test", ".example.test", "[fd00::7]"],
    });
    port = portOf(sandbox.baseUrl);
    otpPort = portOf(sandbox.otpUrl);
  });
  afterAll(() => sandbox?.stop());

  it("answers the names given, case-insensitively and on any port, on both hosts", async () => {
    for (const host of [
      "sandbox.test",
      `SANDBOX.TEST:${port}`,
      "sandbox.test.",
      "example.test",
      "a.b.example.test:1",
      "[fd00::7]",
    ]) {
      expect((await client.send(port, { path: "/v1/numbers", host, key: KEY })).status, host).toBe(200);
      expect((await client.send(otpPort, { path: "/sandbox/v1/clock", host, key: OTP_KEY })).status, host).toBe(200);
    }
  });

  it("an exact name allows nothing under it; a leading dot allows nothing beside", async () => {
    for (const host of ["a.sandbox.test", "badexample.test", "example.test.evil", "[fd00::8]", FOREIGN]) {
      expectRefused(await client.send(port, { path: "/v1/numbers", host, key: KEY }), "forbidden_host");
    }
  });

  it("loopback names stay allowed beside them", async () => {
    expect((await client.send(port, { path: "/v1/numbers", host: "localhost", key: KEY })).status).toBe(200);
  });

  it.each([
    [["http://sandbox.test"], /allowedHosts: "http:\/\/sandbox\.test" is not a host name/],
    [["sandbox.test:4010"], /no scheme or port/],
    [["*.example.test"], /is not a host name/],
    [[""], /is not a host name/],
    [[7], /each entry must be a string/],
    ["sandbox.test", /allowedHosts: must be an array of host names/],
  ])("refuses %j before anything starts, naming allowedHosts", async (allowedHosts, message) => {
    await expect(launchSandbox({ allowedHosts: allowedHosts as string[] })).rejects.toMatchObject({
      code: "invalid_request",
      message: expect.stringMatching(message),
    });
  });
});

describe("the --host value is an allowed name (in process: the URL's host is the Host)", () => {
  it("a sandbox listening on 0.0.0.0 answers Host 0.0.0.0, the address its ready line advertises", async () => {
    const wildcard = await launchSandbox({ clock: "manual", listen: false, host: "0.0.0.0" });
    const loopback = await launchSandbox({ clock: "manual", listen: false });
    try {
      const headers = { authorization: `Bearer ${KEY}` };
      expect((await wildcard.messagingApp.request("http://0.0.0.0:4010/v1/numbers", { headers })).status).toBe(200);
      expect((await wildcard.otpApp.request("http://0.0.0.0:4011/healthz")).status).toBe(200);
      const refused = await loopback.messagingApp.request("http://0.0.0.0:4010/v1/numbers", { headers });
      expect(refused.status).toBe(403);
      expect((await refused.json()).error).toBe("forbidden_host");
      expect((await loopback.messagingApp.request("http://evil.example/v1/numbers", { headers })).status).toBe(403);
    } finally {
      await Promise.all([wildcard.stop(), loopback.stop()]);
    }
  });
});
