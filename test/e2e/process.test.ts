import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { entered, spawnRaw } from "../helpers/serve-process.js";

/**
 * `msgctl serve` as a process in someone else's CI (docs/sandbox.md): stopped by a signal
 * at any instant, and never held up by a reader that does not read its logs.
 */

const KEY = "sk_test_acme_0000000000000000";
/** The longest a stop may take, from the signal to the exit (the contract's 2 s). */
const STOP_DEADLINE_MS = 2_000;

const fresh = () => mkdtempSync(join(tmpdir(), "msgctl-process-"));
const serveArgs = (...extra: string[]) => ["serve", "--json", "--port", "0", "--otp-port", "0", ...extra];

/** Sends a signal and resolves with how the process ended and how long it took. */
async function signalled(serve: ReturnType<typeof spawnRaw>, signal: NodeJS.Signals = "SIGTERM") {
  const sent = performance.now();
  serve.child.kill(signal);
  const { code, signal: by, at } = await serve.exited;
  return { code, signal: by, ms: at - sent };
}

describe("SIGINT and SIGTERM at any instant: exit 0 within 2 s, the state file gone (8.2)", () => {
  // The delay is the test's input (when the signal comes), not a wait for an outcome.
  it.each([0, 10, 50])("SIGTERM %i ms after msgctl starts, before its ready line", async (delay) => {
    const dir = fresh();
    const serve = spawnRaw(serveArgs("--db", "sandbox.db", "--clock", "manual"), { cwd: dir });
    await entered(serve.child.pid as number);
    await new Promise((resolve) => setTimeout(resolve, delay));
    const stop = await signalled(serve);
    expect(stop, serve.stderr()).toMatchObject({ code: 0, signal: null });
    expect(stop.ms).toBeLessThan(STOP_DEADLINE_MS);
    expect(serve.stderr()).toBe("");
    expect(existsSync(join(dir, ".msgctl/sandbox.json"))).toBe(false);
  });

  it("SIGTERM right after the ready line, again and again (5 of 6 died by the signal)", async () => {
    for (let run = 0; run < 4; run++) {
      const dir = fresh();
      const serve = spawnRaw(serveArgs("--db", "sandbox.db", "--clock", "manual"), { cwd: dir });
      await serve.ready();
      const stop = await signalled(serve);
      expect(stop, `run ${run}: ${serve.stderr()}`).toMatchObject({ code: 0, signal: null });
      expect(stop.ms).toBeLessThan(STOP_DEADLINE_MS);
      expect(existsSync(join(dir, ".msgctl/sandbox.json"))).toBe(false);
      expect(existsSync(join(dir, "sandbox.db"))).toBe(true);
    }
  });

  it("SIGINT as well, and no stack trace", async () => {
    const dir = fresh();
    const serve = spawnRaw(serveArgs("--db", ":memory:"), { cwd: dir });
    await serve.ready();
    expect(await signalled(serve, "SIGINT")).toMatchObject({ code: 0, signal: null });
    expect(serve.stderr()).toBe("");
    expect(existsSync(join(dir, ".msgctl/sandbox.json"))).toBe(false);
  });
});

/** POSTs `count` sends, eight at a time; every one must be accepted. */
async function sendMany(baseUrl: string, count: number, from = 0): Promise<void> {
  let next = from;
  const worker = async () => {
    while (next < from + count) {
      const i = next++;
      const response = await fetch(`${baseUrl}/v1/messages`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ to: `+1415555${2000 + (i % 5000)}`, from_handle: "+14155550101", text: `m${i}` }),
      });
      expect(response.status).toBe(202);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** The quickest of three answers to GET /v1/numbers, in ms: a blocked server fails all three. */
async function answerMs(baseUrl: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}/v1/numbers`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    times.push(performance.now() - started);
  }
  return Math.min(...times);
}

describe("logs never stall the sandbox (8.2)", () => {
  it("a --json serve whose stdout nobody reads: 3,000 sends on a real clock, still answering, a count of what was dropped, a stop within 2 s", async () => {
    const serve = spawnRaw(serveArgs("--db", ":memory:", "--no-state-file"), { cwd: fresh() });
    const { base_url } = await serve.ready();
    // Each send logs its events (sent, delivered, read): far more than a pipe holds.
    await sendMany(base_url, 3_000);
    expect(await answerMs(base_url)).toBeLessThan(100);

    // The reader reads again: the first line it is given says how many records were lost.
    const note = JSON.parse(await serve.readUntil((line) => line.includes('"log records dropped"')));
    expect(note).toEqual({
      level: "warn",
      time: expect.any(String),
      sandbox_time: expect.any(String),
      msg: "log records dropped",
      dropped: expect.any(Number),
    });
    expect(note.dropped).toBeGreaterThan(0);
    // Records after it are whole lines of JSON.
    await serve.readUntil((line) => JSON.parse(line).msg !== "log records dropped");

    // And stops reading once more: a stop does not wait for it.
    await sendMany(base_url, 1_000, 3_000);
    const stop = await signalled(serve);
    expect(stop).toMatchObject({ code: 0, signal: null });
    expect(stop.ms).toBeLessThan(STOP_DEADLINE_MS);
  }, 120_000);

  it("--log-file sends the records to a file (its folders made), stdout keeps only the ready line; --log-level debug adds each webhook attempt", async () => {
    const dir = fresh();
    const log = join(dir, "logs", "today", "serve.log");
    const serve = spawnRaw(
      serveArgs("--db", ":memory:", "--no-state-file", "--clock", "manual", "--log-file", log, "--log-level", "debug"),
      { cwd: dir },
    );
    const { base_url } = await serve.ready();
    const post = (path: string, body: unknown) =>
      fetch(`${base_url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    // An endpoint that refuses at once: each attempt is recorded (and logged at debug).
    expect((await post("/v1/webhooks", { url: "http://127.0.0.1:9/hook" })).status).toBe(201);
    expect((await post("/v1/messages", { to: "+14155550191", from_handle: "+14155550101", text: "hi" })).status).toBe(
      202,
    );
    expect((await post("/sandbox/v1/clock/advance", { duration: "5s" })).status).toBe(200);
    expect(await signalled(serve)).toMatchObject({ code: 0 });
    // Nothing but the ready line was ever written to stdout.
    expect(await serve.rest()).toEqual([]);

    const records = readFileSync(log, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records).toContainEqual(expect.objectContaining({ level: "info", msg: "message.sent" }));
    expect(records).toContainEqual(
      expect.objectContaining({ level: "debug", msg: "webhook attempt", event_type: expect.any(String), attempt: 1 }),
    );
    expect(records.at(-1)).toMatchObject({ level: "info", msg: "sandbox stopped" });
    for (const record of records)
      expect(record).toEqual(
        expect.objectContaining({ level: expect.any(String), time: expect.any(String), msg: expect.any(String) }),
      );
  });

  it("--log-level error leaves out info and debug records; a bad level is a usage error", async () => {
    const dir = fresh();
    const serve = spawnRaw(
      serveArgs("--db", ":memory:", "--no-state-file", "--clock", "manual", "--log-level", "error"),
      {
        cwd: dir,
      },
    );
    const { base_url } = await serve.ready();
    const sent = await fetch(`${base_url}/v1/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ to: "+14155550191", from_handle: "+14155550101", text: "hi" }),
    });
    expect(sent.status).toBe(202);
    expect(await signalled(serve)).toMatchObject({ code: 0 });
    expect(await serve.rest()).toEqual([]);

    const bad = spawnRaw(serveArgs("--db", ":memory:", "--no-state-file", "--log-level", "loud"), { cwd: dir });
    expect((await bad.exited).code).toBe(2);
    expect((await bad.rest()).map((line) => JSON.parse(line))).toEqual([
      {
        error: "usage",
        message: "--log-level must be error, info, debug (got loud)",
      },
    ]);
  });
});
