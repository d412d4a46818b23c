import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, spawnServe, type ServeProcess } from "../helpers/cli.js";

describe("msgctl serve, end to end (docs/sandbox.md and README.md)", () => {
  let serve: ServeProcess;
  let flags: string[];

  beforeAll(async () => {
    serve = await spawnServe([
      "--port",
      "0",
      "--otp-port",
      "0",
      "--db",
      ":memory:",
      "--clock",
      "manual",
      "--no-state-file",
    ]);
    flags = ["--base-url", serve.ready.base_url, "--api-key", serve.ready.accounts[0]?.api_key ?? ""];
  });
  afterAll(async () => {
    if (serve.child.exitCode === null) await serve.stop();
  });

  it("prints one JSON ready line first, with urls, keys and numbers", () => {
    expect(serve.ready).toMatchObject({
      event: "ready",
      base_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      otp_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      inspector_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/),
      accounts: [
        { name: "Acme", api_key: "sk_test_acme_0000000000000000", otp_api_key: "otp_live_acme_000000000000000" },
      ],
    });
    expect(serve.ready.accounts[0]?.numbers[0]).toEqual({
      handle: "+14155550101",
      channels: ["imessage", "sms"],
      label: "main",
      status: "online",
    });
  });

  it("answers the advertised inspector URL with the inspector page", async () => {
    const res = await fetch(serve.ready.inspector_url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain('<div id="app">');
    // The page starts with a key it may show: the fixture's.
    expect(html).toContain(`"key":"${serve.ready.accounts[0]?.api_key}"`);
  });

  it("answers /healthz on both hosts and the API with the key", async () => {
    expect((await fetch(`${serve.ready.base_url}/healthz`)).status).toBe(200);
    expect((await fetch(`${serve.ready.otp_url}/healthz`)).status).toBe(200);
    const res = await fetch(`${serve.ready.base_url}/v1/numbers`, {
      headers: { authorization: `Bearer ${serve.ready.accounts[0]?.api_key}` },
    });
    expect(res.status).toBe(200);
  });

  it("advances the manual clock with `msgctl clock advance 1h --json`", async () => {
    const before = await runCli(["clock", "--json", ...flags]);
    expect(before.code).toBe(0);
    const start = JSON.parse(before.stdout);
    expect(start.mode).toBe("manual");
    const after = await runCli(["clock", "advance", "1h", "--json", ...flags]);
    expect(after.code).toBe(0);
    expect(after.stderr).toBe("");
    expect(Date.parse(JSON.parse(after.stdout).now) - Date.parse(start.now)).toBe(3_600_000);
  });

  it("refuses `clock advance` past year 9999 in the duration's terms (it named an `ms` field never given)", async () => {
    const result = await runCli(["clock", "advance", "999999999999999d", ...flags]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /advance: must be 0 or more and keep the clock at or before 9999-12-31T23:59:59\.999Z/,
    );
    expect(result.stderr).not.toMatch(/\bms\b/);
  });

  it("prints numbers as JSON with --json and as a table without", async () => {
    const json = await runCli(["numbers", "--json", ...flags]);
    expect(JSON.parse(json.stdout)).toHaveLength(3);
    const human = await runCli(["numbers", ...flags]);
    expect(human.stdout).toMatch(/HANDLE\s+CHANNELS\s+LABEL\s+STATUS/);
    expect(human.stdout).toContain("+14155550102");
  });

  it("exits 1 with code, message and request id when the API refuses", async () => {
    const result = await runCli([
      "numbers",
      "--base-url",
      serve.ready.base_url,
      "--api-key",
      "sk_test_wrong_000000000",
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/unauthorized: .+\(request id req_[0-9a-f]{24}\)/);
  });

  it("exits 2 on a usage error", async () => {
    expect((await runCli(["clock", "advance", "soon", ...flags])).code).toBe(2);
    const bare = await runCli(["clock", "advance", "90", ...flags]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("A duration needs a unit: ms, s, m, h or d");
    expect((await runCli(["no-such-command"])).code).toBe(2);
    expect((await runCli(["serve", "--clock", "sideways", "--no-state-file"])).code).toBe(2);
  });

  it("stops cleanly on SIGTERM with exit 0", async () => {
    expect(await serve.stop("SIGTERM")).toBe(0);
  });
});

describe("state file and database on disk", () => {
  const dir = mkdtempSync(join(tmpdir(), "msgctl-e2e-"));

  it("writes <state-dir>/sandbox.json so commands need no flags, and removes it on exit", async () => {
    const serve = await spawnServe(["--port", "0", "--otp-port", "0", "--clock", "manual"], { cwd: dir });
    const state = JSON.parse(readFileSync(join(dir, ".msgctl/sandbox.json"), "utf8"));
    expect(state).toMatchObject({ pid: serve.child.pid, base_url: serve.ready.base_url, otp_url: serve.ready.otp_url });
    const numbers = await runCli(["numbers", "--json"], { cwd: dir });
    expect(numbers.code).toBe(0);
    const env = await runCli(["env"], { cwd: dir });
    expect(env.stdout).toContain(`export MSGCTL_BASE_URL='${serve.ready.base_url}'`);
    expect(env.stdout).toContain("export MSGCTL_API_KEY='sk_test_acme_0000000000000000'");
    expect(await serve.stop("SIGINT")).toBe(0);
    expect(existsSync(join(dir, ".msgctl/sandbox.json"))).toBe(false);
    expect(existsSync(join(dir, ".msgctl/sandbox.db"))).toBe(true);
    // The WAL was checkpointed into the database file on a clean stop.
    expect(existsSync(join(dir, ".msgctl/sandbox.db-wal"))).toBe(false);
  });

  it("keeps the manual clock across a restart with the same database", async () => {
    const first = await spawnServe(["--port", "0", "--otp-port", "0", "--clock", "manual", "--no-state-file"], {
      cwd: dir,
    });
    const flags = ["--base-url", first.ready.base_url, "--api-key", "sk_test_acme_0000000000000000"];
    const advanced = JSON.parse((await runCli(["clock", "advance", "24h", "--json", ...flags])).stdout);
    await first.stop();
    const second = await spawnServe(["--port", "0", "--otp-port", "0", "--clock", "manual", "--no-state-file"], {
      cwd: dir,
    });
    const now = JSON.parse(
      (
        await runCli([
          "clock",
          "--json",
          "--base-url",
          second.ready.base_url,
          "--api-key",
          "sk_test_acme_0000000000000000",
        ])
      ).stdout,
    );
    expect(now.now).toBe(advanced.now);
    await second.stop();
  });

  it("refuses a malformed fixture naming file, field and problem, writing nothing", async () => {
    const fresh = mkdtempSync(join(tmpdir(), "msgctl-bad-"));
    const fixture = join(fresh, "bad.json");
    writeFileSync(
      fixture,
      JSON.stringify({ accounts: [{ name: "A", numbers: [{ handle: "+15555550100", channels: ["sms"] }] }] }),
    );
    const result = await runCli(["serve", "--fixture", fixture, "--port", "0", "--otp-port", "0"], { cwd: fresh });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${fixture}: accounts[0].numbers[0].handle: "+15555550100" is not a valid phone number`,
    );
    expect(existsSync(join(fresh, ".msgctl"))).toBe(false);
    const json = await runCli(["serve", "--json", "--fixture", fixture, "--port", "0", "--otp-port", "0"], {
      cwd: fresh,
    });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      error: "invalid_fixture",
      message: expect.stringContaining(`${fixture}: accounts[0].numbers[0].handle`),
    });
    expect(existsSync(join(fresh, ".msgctl"))).toBe(false);
  });

  it("says which port is busy instead of moving to another: exit 1, port_in_use", async () => {
    const serve = await spawnServe(["--port", "0", "--otp-port", "0", "--db", ":memory:", "--no-state-file"]);
    const port = new URL(serve.ready.base_url).port;
    const clash = await runCli(["serve", "--port", port, "--otp-port", "0", "--db", ":memory:", "--no-state-file"]);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain(`Cannot listen on 127.0.0.1:${port}`);
    // With --json, stdout stays JSON-only: no port-finder chatter before the error.
    const quiet = await runCli([
      "serve",
      "--json",
      "--port",
      port,
      "--otp-port",
      "0",
      "--db",
      ":memory:",
      "--no-state-file",
    ]);
    expect(quiet.code).toBe(1);
    expect(JSON.parse(quiet.stdout)).toEqual({
      error: "port_in_use",
      message: expect.stringContaining(`Cannot listen on 127.0.0.1:${port}`),
    });
    expect(quiet.stderr).toBe("");
    await serve.stop();
  });
});
