import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, resolveConnection } from "../../src/cli/connection.js";
import { startSandbox, type StartedSandbox } from "../../src/runtime/start-sandbox.js";
import { runCli } from "../helpers/cli.js";

const NOWHERE = { stateDir: "/nonexistent" };

describe("where a command goes: flags, MSGCTL_* variables, the state file (README.md)", () => {
  it("a --base-url or --otp-url that is not an http(s) URL is a usage error naming the flag and its variable", () => {
    expect(() => resolveConnection({ ...NOWHERE, baseUrl: "notaurl" }, {})).toThrow(
      expect.objectContaining({
        name: "UsageError",
        message: '--base-url (or MSGCTL_BASE_URL) must be an http(s) URL such as http://127.0.0.1:4010 (got "notaurl")',
      }),
    );
    expect(() => resolveConnection(NOWHERE, { MSGCTL_BASE_URL: "ftp://127.0.0.1" })).toThrow(
      /--base-url \(or MSGCTL_BASE_URL\) must be an http\(s\) URL/,
    );
    expect(() =>
      resolveConnection(NOWHERE, { MSGCTL_BASE_URL: "http://127.0.0.1:4010", MSGCTL_OTP_URL: "notaurl" }),
    ).toThrow(/--otp-url \(or MSGCTL_OTP_URL\) must be/);
  });

  it("an OTP command needs only the OTP host's URL; a messaging command still needs --base-url", () => {
    const env = { MSGCTL_OTP_URL: "http://127.0.0.1:4011", MSGCTL_OTP_API_KEY: "otp_live_x" };
    expect(resolveConnection(NOWHERE, env, "otp")).toEqual({
      otpUrl: "http://127.0.0.1:4011",
      otpApiKey: "otp_live_x",
      baseUrl: undefined,
      apiKey: undefined,
      account: undefined,
    });
    expect(() => resolveConnection(NOWHERE, env)).toThrow(
      expect.objectContaining({ name: "NoSandboxError", message: expect.stringContaining("pass --base-url") }),
    );
    expect(() => resolveConnection(NOWHERE, { MSGCTL_BASE_URL: "http://127.0.0.1:4010" }, "otp")).toThrow(
      expect.objectContaining({
        name: "NoSandboxError",
        message: expect.stringContaining("pass --otp-url (or set MSGCTL_OTP_URL)"),
      }),
    );
  });
});

describe("a command with no key to send", () => {
  it("is a usage error saying which flag to pass, and why a restarted sandbox's state file has none", () => {
    expect(() => connect({ ...NOWHERE, baseUrl: "http://127.0.0.1:4010" })).toThrow(
      expect.objectContaining({
        name: "UsageError",
        message: "No messaging API key known. Pass --api-key (or set MSGCTL_API_KEY)",
      }),
    );
    expect(() => connect({ ...NOWHERE, otpUrl: "http://127.0.0.1:4011" }, "otp")).toThrow(
      "No OTP API key known. Pass --otp-api-key (or set MSGCTL_OTP_API_KEY)",
    );
    const stateDir = mkdtempSync(join(tmpdir(), "msgctl-no-keys-"));
    writeFileSync(
      join(stateDir, "sandbox.json"),
      JSON.stringify({
        pid: 1,
        base_url: "http://127.0.0.1:4010",
        otp_url: "http://127.0.0.1:4011",
        accounts: [{ name: "Acme", api_key: null, otp_api_key: null }],
      }),
    );
    expect(() => connect({ stateDir })).toThrow(
      /^No messaging API key known: Acme's keys were shown once, when the sandbox first seeded it/,
    );
  });
});

describe("--account on the command line", () => {
  const stateDir = mkdtempSync(join(tmpdir(), "msgctl-account-flag-"));
  writeFileSync(
    join(stateDir, "sandbox.json"),
    JSON.stringify({
      pid: 1,
      base_url: "http://127.0.0.1:4010",
      otp_url: "http://127.0.0.1:4011",
      accounts: [
        { name: "Acme", api_key: "sk_test_acme", otp_api_key: "otp_live_acme" },
        { name: "Worker 1", api_key: "sk_test_worker", otp_api_key: "otp_live_worker" },
      ],
    }),
  );

  it("outranks MSGCTL_API_KEY (as `msgctl env` exports the first account's); --api-key still outranks it", () => {
    const env = { MSGCTL_API_KEY: "sk_test_acme", MSGCTL_OTP_API_KEY: "otp_live_acme" };
    expect(resolveConnection({ stateDir, account: "Worker 1" }, env)).toMatchObject({
      apiKey: "sk_test_worker",
      otpApiKey: "otp_live_worker",
    });
    expect(resolveConnection({ stateDir }, env)).toMatchObject({ apiKey: "sk_test_acme" });
    expect(resolveConnection({ stateDir, account: "Worker 1", apiKey: "sk_test_flag" }, env)).toMatchObject({
      apiKey: "sk_test_flag",
    });
  });

  it("without a state file is a usage error, not silently ignored", () => {
    expect(() =>
      resolveConnection({ ...NOWHERE, account: "Worker 1" }, { MSGCTL_BASE_URL: "http://127.0.0.1:4010" }),
    ).toThrow(
      expect.objectContaining({
        name: "UsageError",
        message: expect.stringMatching(/^--account Worker 1 picks an account of a running sandbox's/),
      }),
    );
  });
});

describe("the CLI turns bad URLs and unwritable paths into one-line errors, and runs OTP commands on OTP settings alone", () => {
  let sandbox: StartedSandbox;
  let empty: string;
  beforeAll(async () => {
    sandbox = await startSandbox();
    empty = mkdtempSync(join(tmpdir(), "msgctl-connection-"));
  });
  afterAll(() => sandbox?.stop());

  const noCrash = (stderr: string) => expect(stderr).not.toMatch(/crashed|TypeError|\n\s+at /);

  it.each([
    [["numbers", "--base-url", "notaurl"], {}, "--base-url (or MSGCTL_BASE_URL)"],
    [["numbers"], { MSGCTL_BASE_URL: "notaurl" }, "--base-url (or MSGCTL_BASE_URL)"],
    [["otp", "get", "chal_x", "--otp-url", "notaurl"], {}, "--otp-url (or MSGCTL_OTP_URL)"],
  ])("msgctl %j with %j: exit 2, naming %s", async (args, env, named) => {
    const result = await runCli(args, { cwd: empty, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error ${named} must be an http(s) URL such as http://127.0.0.1:4010 (got "notaurl")\n`);
  });

  it("otp create, text, wait, get and consume work with MSGCTL_OTP_URL and MSGCTL_OTP_API_KEY only, in a directory without a sandbox", async () => {
    const env = { MSGCTL_OTP_URL: sandbox.otpUrl, MSGCTL_OTP_API_KEY: sandbox.otpApiKey };
    const otp = async (...args: string[]) => {
      const result = await runCli([...args, "--json"], { cwd: empty, env });
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout);
    };
    const created = await otp("otp", "create", "--phone", "+14155550141");
    expect(created).toMatchObject({ id: expect.stringMatching(/^chal_/), phone: "+14155550141" });
    expect(await otp("otp", "text", created.id)).toMatchObject({ status: "verified" });
    expect(await otp("wait", "otp", created.id, "--status", "verified")).toMatchObject({ status: "verified" });
    expect(await otp("otp", "consume", created.id)).toMatchObject({ status: "consumed" });
    expect(await otp("otp", "get", created.id)).toMatchObject({ status: "consumed" });

    const messaging = await runCli(["numbers"], { cwd: empty, env });
    expect(messaging.code).toBe(1);
    expect(messaging.stderr).toContain("No sandbox found: start one with `msgctl serve`, or pass --base-url");
  });

  it("attachments download -o makes missing folders; a path that cannot be a file is exit 2 naming it", async () => {
    const file = join(empty, "note.txt");
    writeFileSync(file, "hello");
    const flags = ["--base-url", sandbox.baseUrl, "--api-key", sandbox.apiKey];
    const [uploaded] = JSON.parse(
      (await runCli(["attachments", "upload", file, "--json", ...flags], { cwd: empty })).stdout,
    );
    // A folder under a file: nothing can be made there.
    const result = await runCli(["attachments", "download", uploaded.id, "-o", `${file}/dir/f.txt`, ...flags], {
      cwd: empty,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error -o \S+\/note\.txt\/dir\/f\.txt: cannot write there \(a part of the path is (not a directory|a file)\)\n$/,
    );
    noCrash(result.stderr);

    const nested = join(empty, "downloads", "today", "copy.txt");
    const saved = await runCli(["attachments", "download", uploaded.id, "-o", nested, ...flags], { cwd: empty });
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toContain("Saved");
    expect(readFileSync(nested, "utf8")).toBe("hello");
  });
});
