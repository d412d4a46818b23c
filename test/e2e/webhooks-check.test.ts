import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { useServe } from "../helpers/cli.js";
import { startHandler, type HandlerFlaws, type TestHandler } from "../helpers/webhook-handlers.js";

const SECRET = "whsec_test_0123456789abcdef";
const FLASK_HANDLER = resolve(import.meta.dirname, "../fixtures/flask_webhook_handler.py");
const ROWS =
  /^(valid_event|duplicate_event|tampered_body|wrong_secret|stale_timestamp|future_timestamp|missing_signature|missing_v1|v1_not_hex|read_before_delivered|delivered_after_read|unknown_field)\s+(\d{3}|none)\s+\d+ ms\s+(pass|fail)$/;

const handlers: TestHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

async function nodeHandler(flaws: HandlerFlaws = {}): Promise<string> {
  const handler = await startHandler(SECRET, flaws);
  handlers.push(handler);
  return handler.url;
}

/** The table's rows as [probe, status, verdict]. */
const rowsOf = (stdout: string) =>
  stdout
    .split("\n")
    .map((line) => ROWS.exec(line))
    .filter((match) => match !== null)
    .map((match) => [match[1], match[2], match[3]]);

describe("msgctl webhooks check over the real CLI", () => {
  const s = useServe();

  it("a correct handler: the table, every probe passed, exit 0", async () => {
    const url = await nodeHandler();
    const result = await s.cli("webhooks", "check", "--url", url, "--secret", SECRET);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Handler: ${url}`);
    expect(result.stdout).toMatch(/^PROBE\s+STATUS\s+TIME\s+VERDICT$/m);
    const rows = rowsOf(result.stdout);
    expect(rows).toHaveLength(12);
    expect(rows.every(([, , verdict]) => verdict === "pass")).toBe(true);
    expect(rows.find(([probe]) => probe === "tampered_body")?.[1]).toBe("400");
    expect(result.stdout).toContain("✔ Passed: all 12 probes answered as a correct handler answers.");
    expect(result.stdout).toMatch(/duplicate_event: delivery is at least once: .*X-Msgctl-Event-Id/);
    expect(result.stderr).toBe("");
  });

  it("--json: { url, passed, probes: [{ probe, status, ms, verdict, why }] }, exit 0", async () => {
    const url = await nodeHandler();
    const report = await s.json("webhooks", "check", "--url", url, "--secret", SECRET);
    expect(Object.keys(report)).toEqual(["url", "passed", "probes"]);
    expect(report).toMatchObject({ url, passed: true });
    expect(report.probes).toHaveLength(12);
    for (const probe of report.probes) expect(Object.keys(probe)).toEqual(["probe", "status", "ms", "verdict", "why"]);
  });

  it("a handler that accepts stale and future timestamps: what failed and why, exit 1", async () => {
    const url = await nodeHandler({ signature: "no-timestamp" });
    const result = await s.cli("webhooks", "check", "--url", url, "--secret", SECRET);
    expect(result.code).toBe(1);
    const failing = rowsOf(result.stdout).filter(([, , verdict]) => verdict === "fail");
    expect(failing).toEqual([
      ["stale_timestamp", "200", "fail"],
      ["future_timestamp", "200", "fail"],
    ]);
    expect(result.stdout).toContain("✘ 2 of 12 probes failed:");
    expect(result.stdout).toMatch(/^ {2}stale_timestamp: accepted with 200: t is 301 s in the past: reject/m);
    expect(result.stderr).toBe(`error The handler at ${url} failed 2 of 12 probes (see above)\n`);
  });

  it("an answer after the acknowledgement window fails its probe: a cold start longer than the window", async () => {
    // The window is the webhook_timeout_ms setting (10 s by default, spec section 6, delivery rule 1;
    // the API's suites pin the default); 2 s here, set over the CLI as a suite would, keeps the run short.
    expect((await s.cli("settings", "set", "webhook_timeout_ms", "2000")).code).toBe(0);
    try {
      const url = await nodeHandler({ coldStartMs: 3_000 });
      const report = JSON.parse((await s.cli("webhooks", "check", "--url", url, "--secret", SECRET, "--json")).stdout);
      expect(report.probes.filter((p: { verdict: string }) => p.verdict === "fail")).toEqual([
        {
          probe: "valid_event",
          status: null,
          ms: expect.any(Number),
          verdict: "fail",
          why: "no answer within 2 s: a handler must answer within 2 s (answer first, do slow work afterwards)",
        },
      ]);
      expect(report.probes[0].ms).toBeGreaterThanOrEqual(2_000);
      expect(report.probes[0].ms).toBeLessThan(3_000);
    } finally {
      await s.cli("settings", "set", "webhook_timeout_ms", "10000");
    }
  });

  it("--json when a probe failed: one object, the report with error check_failed, exit 1", async () => {
    const url = await nodeHandler({ duplicates: "refused" });
    const result = await s.cli("webhooks", "check", "--url", url, "--secret", SECRET, "--json");
    expect(result.code).toBe(1);
    expect(result.stdout.trim().split("\n")).toHaveLength(1);
    const answer = JSON.parse(result.stdout);
    expect(answer).toMatchObject({
      error: "check_failed",
      message: `The handler at ${url} failed 1 of 12 probes`,
      url,
      passed: false,
    });
    const failed = answer.probes.filter((p: { verdict: string }) => p.verdict === "fail");
    expect(failed).toEqual([
      { probe: "duplicate_event", status: 409, ms: expect.any(Number), verdict: "fail", why: expect.any(String) },
    ]);
    expect(result.stderr).toBe("");
  });

  it("nothing at the URL: unreachable, exit 1 (with --json the API's error object)", async () => {
    const url = await nodeHandler();
    await handlers.pop()?.close();
    const human = await s.cli("webhooks", "check", "--url", url, "--secret", SECRET);
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(
      /^error unreachable: Cannot reach the handler at .*ECONNREFUSED.*Is your app running there\?/,
    );
    const json = await s.cli("webhooks", "check", "--url", url, "--secret", SECRET, "--json");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: "unreachable",
      status: 422,
      request_id: expect.any(String),
    });
  });

  it("a URL the webhook rules refuse: invalid_url, exit 1; no --secret: usage, exit 2", async () => {
    const refused = await s.cli("webhooks", "check", "--url", "http://10.0.0.8/hooks", "--secret", SECRET);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/invalid_url: url: .*private address/);
    const usage = await s.cli("webhooks", "check", "--url", "http://127.0.0.1:9/hooks");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--secret");
  });
});

describe("a check step in a scenario file (msgctl run)", () => {
  const s = useServe();

  const runCheck = async (url: string, ...flags: string[]) => {
    const dir = mkdtempSync(join(tmpdir(), "msgctl-check-"));
    const file = join(dir, "handler.yaml");
    const yaml = `name: the handler is correct\nsteps:\n  - check: { url: "${url}", secret: "${SECRET}" }\n    save: report\n`;
    writeFileSync(file, yaml);
    return s.cli("run", file, ...flags);
  };

  it("a correct handler: the step passes, exit 0", async () => {
    const url = await nodeHandler();
    const result = await runCheck(url, "--json");
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.files[0].steps).toEqual([
      { index: 0, kind: "check", passed: true, message: `${url} passed all 12 probes` },
    ]);
  });

  it("a handler that refuses repeats: unmet, each failed probe named with what to change, exit 1", async () => {
    const url = await nodeHandler({ duplicates: "refused" });
    const result = await runCheck(url);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`steps[0] check: ${url} failed 1 of 12 probes`);
    expect(result.stdout).toMatch(/duplicate_event \(409\): answered 409: a repeat of an event must be acknowledged/);
  });
});

/** A Flask handler started with python3 (the flaw given, or none), and its URL once it listens. */
function startFlask(flaw?: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn("python3", [FLASK_HANDLER, ...(flaw ? [flaw] : [])], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, WEBHOOK_SECRET: SECRET },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const errors: string[] = [];
  child.stderr?.on("data", (chunk) => errors.push(String(chunk)));
  return new Promise((resolvePort, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once("line", (port) =>
      resolvePort({ url: `http://127.0.0.1:${port.trim()}/webhooks`, child }),
    );
    child.once("exit", (code) => reject(new Error(`the Flask handler exited (${code}): ${errors.join("")}`)));
  });
}

describe("a Python (Flask) handler, checked over the real CLI", () => {
  const s = useServe();
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill();
  });
  const flask = async (flaw?: string) => {
    const started = await startFlask(flaw);
    children.push(started.child);
    return started.url;
  };

  it("verifying the raw body within 300 s and acknowledging repeats: every probe passes, exit 0", async () => {
    const url = await flask();
    const result = await s.cli("webhooks", "check", "--url", url, "--secret", SECRET);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(rowsOf(result.stdout).map(([probe, status, verdict]) => `${probe} ${status} ${verdict}`)).toEqual([
      "valid_event 204 pass",
      "duplicate_event 204 pass",
      "tampered_body 400 pass",
      "wrong_secret 400 pass",
      "stale_timestamp 400 pass",
      "future_timestamp 400 pass",
      "missing_signature 400 pass",
      "missing_v1 400 pass",
      "v1_not_hex 400 pass",
      "read_before_delivered 204 pass",
      "delivered_after_read 204 pass",
      "unknown_field 204 pass",
    ]);
  });

  it("HMAC over json.dumps of the parsed body: every valid event refused, the report says why, exit 1", async () => {
    const url = await flask("reserialized-body");
    const result = await s.cli("webhooks", "check", "--url", url, "--secret", SECRET, "--json");
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    const failed = report.probes.filter((p: { verdict: string }) => p.verdict === "fail");
    expect(failed.map((p: { probe: string }) => p.probe)).toEqual([
      "valid_event",
      "duplicate_event",
      "read_before_delivered",
      "delivered_after_read",
      "unknown_field",
    ]);
    expect(failed[0].why).toMatch(/^answered 400: .*compute the HMAC over the raw body, byte for byte/);
    expect(failed[1].why).toBe("answered 400, as valid_event was: fix that one first");
  });

  it("no replay window: the stale and future timestamps accepted, exit 1", async () => {
    const url = await flask("no-timestamp");
    const result = await s.cli("webhooks", "check", "--url", url, "--secret", SECRET);
    expect(result.code).toBe(1);
    expect(rowsOf(result.stdout).filter(([, , verdict]) => verdict === "fail")).toEqual([
      ["stale_timestamp", "204", "fail"],
      ["future_timestamp", "204", "fail"],
    ]);
  });
});
