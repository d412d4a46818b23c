// What every benchmark shares: spawning msgctl and the reference processes, timing, percentiles,
// and a keep-alive HTTP client for the set-up requests (never timed).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";

export const ROOT = resolve(import.meta.dirname, "..");
/** The msgctl to run: the built bin/msgctl, or BENCH_BIN (an unminified build to profile). */
export const BIN = process.env.BENCH_BIN ?? join(ROOT, "bin/msgctl");
export const KEY = "sk_test_acme_0000000000000000";
export const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);

const scratchFolders = [];
process.once("exit", () => {
  for (const folder of scratchFolders) rmSync(folder, { recursive: true, force: true });
});

/** A fresh temporary folder for one benchmark's files, removed when the benchmark's process exits. */
export function scratch() {
  const folder = mkdtempSync(join(tmpdir(), "msgctl-bench-"));
  scratchFolders.push(folder);
  return folder;
}

/** Spawns a process and resolves with its first stdout line and the child. */
export function spawnFirstLine(args, options = {}) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"], ...options });
  return new Promise((done, fail) => {
    createInterface({ input: child.stdout }).once("line", (line) => done({ child, line, started }));
    child.once("exit", (code) => fail(new Error(`${args.join(" ")} exited with ${code}`)));
  });
}

/**
 * Starts `msgctl serve --json --quiet` on free ports with these flags; resolves with its ready
 * line. BENCH_SERVE_ARGS adds node flags (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
export async function serve(flags) {
  const nodeArgs = process.env.BENCH_SERVE_ARGS?.split(" ").filter(Boolean) ?? [];
  const { child, line } = await spawnFirstLine([
    ...nodeArgs,
    BIN,
    "serve",
    "--json",
    "--quiet",
    "--port",
    "0",
    "--otp-port",
    "0",
    "--no-state-file",
    ...flags,
  ]);
  return { child, ready: JSON.parse(line), base: JSON.parse(line).base_url };
}

export const stop = (child) =>
  new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once("exit", done);
    child.kill("SIGTERM");
  });

export const ms = (ns) => Number(ns) / 1e6;
export const elapsedMs = (start) => ms(process.hrtime.bigint() - start);
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const round = (value, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The p-th percentile (0-100) of some values, nearest rank. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux; null elsewhere).
 * On a shared machine it is steadier than wall time: it does not count the time other
 * processes held the cores.
 */
export function cpuMs(pid, { mainThread = false } = {}) {
  try {
    // The main thread's own (the event loop's), or the process's with its worker threads.
    const fields = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, "utf8")
      .split(") ")[1]
      .split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/** This process's CPU time (user + system, ms). */
export const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** One JSON request over a keep-alive agent; resolves with { status, body }. */
export function call(url, { method = "GET", body, headers = {} } = {}) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((done, fail) => {
    const req = request(
      url,
      {
        method,
        agent,
        headers: {
          authorization: `Bearer ${KEY}`,
          ...(payload ? { "content-type": "application/json" } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          done({ status: res.statusCode, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on("error", fail);
    req.end(payload);
  });
}

/** Runs `task(i)` for i in [0, count) with at most `concurrency` running at once. */
export async function inParallel(count, concurrency, task) {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/** Sends `count` messages to distinct default-profile recipients (iMessage, read receipts on). */
export async function sendMessages(base, count) {
  await inParallel(count, 16, async (i) => {
    const to = `+1415555${String(2000 + (i % 8000)).padStart(4, "0")}`;
    const res = await call(`${base}/v1/messages`, {
      method: "POST",
      body: { to, from_handle: "+14155550101", text: `m${i}` },
    });
    if (res.status !== 202) throw new Error(`send ${i}: ${res.status} ${JSON.stringify(res.body)}`);
  });
}

/** POST /sandbox/v1/clock/advance; resolves with the real milliseconds it took. */
export async function advance(base, duration) {
  const started = process.hrtime.bigint();
  const res = await call(`${base}/sandbox/v1/clock/advance`, { method: "POST", body: { duration } });
  const took = elapsedMs(started);
  if (res.status !== 200) throw new Error(`advance: ${res.status} ${JSON.stringify(res.body)}`);
  return took;
}

/** Every event of the account, oldest first. */
export async function allEvents(base) {
  const events = [];
  for (let after = 0; ; ) {
    const page = (await call(`${base}/sandbox/v1/events?after=${after}&limit=100`)).body;
    events.push(...page.data);
    if (!page.has_more) return events;
    after = page.data.at(-1).seq;
  }
}
