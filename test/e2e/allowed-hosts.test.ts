import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, spawnServe, type ServeProcess } from "../helpers/cli.js";
import { spawnCli } from "../helpers/cli-process.js";
import { rawRequest } from "../helpers/raw-http.js";

/**
 * `msgctl serve --allowed-hosts` and `--host`, end to end over bin/msgctl: the names a request's
 * Host header may carry, and the warning when the hosts listen where the network reaches them.
 */

const BASE = ["--port", "0", "--otp-port", "0", "--db", ":memory:", "--clock", "manual", "--no-state-file"];
const KEY = "sk_test_acme_0000000000000000";
const portOf = (url: string) => Number(new URL(url).port);
const statusFor = async (port: number, host: string, path = "/v1/numbers") =>
  (
    await rawRequest(
      port,
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`,
    )
  ).status;

describe("msgctl serve --allowed-hosts", () => {
  let serve: ServeProcess;
  let port: number;
  let otpPort: number;

  beforeAll(async () => {
    serve = await spawnServe([...BASE, "--allowed-hosts", "sandbox.test, .Example.Test"]);
    port = portOf(serve.ready.base_url);
    otpPort = portOf(serve.ready.otp_url);
  });
  afterAll(async () => {
    if (serve?.child.exitCode === null) await serve.stop();
  });

  it("answers the names given (a leading dot: the name and every name under it) on both hosts", async () => {
    for (const host of ["sandbox.test", `SANDBOX.TEST:${port}`, "example.test", "ci.example.test:80", "localhost"]) {
      expect(await statusFor(port, host), host).toBe(200);
      expect(await statusFor(otpPort, host, "/openapi.json"), host).toBe(200);
    }
  });

  it("refuses any other name with 403 forbidden_host, and answers /healthz whatever the name", async () => {
    for (const host of ["evil.example", "a.sandbox.test", "example.test.evil"])
      expect(await statusFor(port, host)).toBe(403);
    expect(await statusFor(port, "evil.example", "/healthz")).toBe(200);
    expect(await statusFor(otpPort, "evil.example", "/healthz")).toBe(200);
  });

  it("prints no network warning: it listens on 127.0.0.1", () => {
    expect(serve.stderr.join("")).toBe("");
    expect(serve.lines.some((line) => line.includes('"level":"warn"'))).toBe(false);
  });
});

describe("msgctl serve --allowed-hosts with a value that is not a list of names", () => {
  it.each([
    ["a URL", "http://sandbox.test", /--allowed-hosts: "http:\/\/sandbox\.test" is not a host name/],
    ["a port", "sandbox.test:4010", /no scheme or port \(any port is allowed\)/],
    ["a wildcard", "*.example.test", /is not a host name/],
  ])("%s is a usage error (exit 2) naming the flag, before anything starts", async (_what, value, message) => {
    const result = await runCli(["serve", ...BASE, "--allowed-hosts", value]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe("");
  });
});

describe("msgctl serve --host 0.0.0.0 (every interface)", () => {
  const WARNING =
    /--host 0\.0\.0\.0 is not a loopback address: the messaging and OTP APIs, the control API and the inspector are reachable from that network/;

  it("warns on stderr and in a warn log record after the ready line (--json); its own URL still works", async () => {
    const serve = await spawnServe([...BASE, "--host", "0.0.0.0"]);
    try {
      expect(serve.ready.base_url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
      // Both are written right after the ready line; poll the captured output until they are in.
      const record = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no warning: ${serve.lines.join("\n")}`)), 10_000);
        const look = () => {
          const line = serve.lines.slice(1).find((l) => l.includes('"level":"warn"'));
          if (!line || !WARNING.test(serve.stderr.join(""))) return void setTimeout(look, 20);
          clearTimeout(timer);
          resolve(JSON.parse(line));
        };
        look();
      });
      expect(record).toMatchObject({
        level: "warn",
        msg: expect.stringMatching(WARNING),
        host: "0.0.0.0",
        address: "0.0.0.0",
      });
      expect(serve.stderr.join("")).toMatch(WARNING);
      // The address the ready line advertises is one the sandbox answers to (the --host value).
      const numbers = await runCli(["numbers", "--json", "--base-url", serve.ready.base_url, "--api-key", KEY]);
      expect(numbers.code, numbers.stderr).toBe(0);
    } finally {
      await serve.stop();
    }
  });

  it("warns on stderr without --json too, and under --quiet", async () => {
    for (const extra of [[], ["--quiet"]]) {
      const serve = spawnCli(["serve", ...BASE, "--host", "0.0.0.0", ...extra]);
      try {
        await serve.stderrContains("reachable from that network");
        expect(serve.stderr()).toMatch(WARNING);
      } finally {
        await serve.stop("SIGTERM");
      }
    }
  });
});
