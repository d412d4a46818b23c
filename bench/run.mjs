// msgctl benchmarks. Every figure is reported as a ratio against a reference measured in the
// same run on the same machine, so the numbers mean something across machines.
//   1. POST /v1/messages throughput and latency (autocannon, 50 connections) vs a bare
//      node:http server doing one prepared SQLite insert per request.   target: ratio ≥ 0.5
//   2. Start-up to first 200 of `msgctl serve --db :memory:` vs a bare node:http server.
//                                                                       target: ≤ 300 ms
//   3. `clock advance 24h` over 1,000 queued messages, each reaching `read`, vs the same
//      number of raw SQLite transactions.                               target: ≤ 1 s
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import Database from "better-sqlite3";

const ROOT = resolve(import.meta.dirname, "..");
const BIN = join(ROOT, "bin/msgctl");
const KEY = "sk_test_acme_0000000000000000";
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const results = {};

/** Spawns a process and resolves with its first stdout line and the child. */
function spawnFirstLine(args) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((done, fail) => {
    createInterface({ input: child.stdout }).once("line", (line) => done({ child, line, started }));
    child.once("exit", (code) => fail(new Error(`${args.join(" ")} exited with ${code}`)));
  });
}

const stop = (child) => new Promise((done) => { child.once("exit", done); child.kill("SIGTERM"); });
const ms = (ns) => Number(ns) / 1e6;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function load(url, headers) {
  const body = JSON.stringify({ to: "+14155550191", from_handle: "+14155550101", text: "Hello from the benchmark" });
  const result = await autocannon({ url, method: "POST", connections: 50, duration: DURATION_S, headers: { "content-type": "application/json", ...headers }, body });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

// --- 1. Throughput ---
async function throughput() {
  const dir = mkdtempSync(join(tmpdir(), "msgctl-bench-"));
  const reference = await spawnFirstLine([join(ROOT, "bench/reference-server.mjs"), join(dir, "reference.db")]);
  const ref = await load(reference.line, {});
  await stop(reference.child);

  const sandbox = await spawnFirstLine([BIN, "serve", "--json", "--quiet", "--port", "0", "--otp-port", "0", "--db", join(dir, "sandbox.db"), "--clock", "manual", "--no-state-file"]);
  const ready = JSON.parse(sandbox.line);
  const msgctl = await load(`${ready.base_url}/v1/messages`, { authorization: `Bearer ${KEY}` });
  await stop(sandbox.child);
  results.throughput = { reference: ref, msgctl, ratio: msgctl.rps / ref.rps };
}

// --- 2. Start-up ---
async function firstOk(url) {
  for (;;) {
    try {
      if ((await fetch(url)).status === 200) return process.hrtime.bigint();
    } catch {
      // not listening yet
    }
  }
}

async function startup() {
  const runs = { reference: [], msgctl: [] };
  const bare = "require('node:http').createServer((q,s)=>s.end('ok')).listen(0,'127.0.0.1',function(){console.log('http://127.0.0.1:'+this.address().port)})";
  for (let i = 0; i < 7; i++) {
    const ref = await spawnFirstLine(["-e", bare]);
    runs.reference.push(ms((await firstOk(ref.line)) - ref.started));
    await stop(ref.child);
    const sandbox = await spawnFirstLine([BIN, "serve", "--json", "--quiet", "--port", "0", "--otp-port", "0", "--db", ":memory:", "--no-state-file"]);
    runs.msgctl.push(ms((await firstOk(`${JSON.parse(sandbox.line).base_url}/healthz`)) - sandbox.started));
    await stop(sandbox.child);
  }
  results.startup = { reference_ms: median(runs.reference), msgctl_ms: median(runs.msgctl), ratio: median(runs.msgctl) / median(runs.reference) };
}

// --- 3. Advance 24h over 1,000 messages ---
function rawTransitions(count) {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE m (id INTEGER PRIMARY KEY, status TEXT); CREATE TABLE e (seq INTEGER PRIMARY KEY AUTOINCREMENT, payload TEXT); CREATE TABLE j (id INTEGER PRIMARY KEY AUTOINCREMENT, due INTEGER)");
  const insert = db.prepare("INSERT INTO m (id, status) VALUES (?, 'queued')");
  for (let i = 0; i < count; i++) insert.run(i);
  const update = db.prepare("UPDATE m SET status = ? WHERE id = ?");
  const event = db.prepare("INSERT INTO e (payload) VALUES (?)");
  const job = db.prepare("INSERT INTO j (due) VALUES (?)");
  const done = db.prepare("DELETE FROM j WHERE id = ?");
  const started = process.hrtime.bigint();
  for (const status of ["sent", "delivered", "read"]) {
    for (let i = 0; i < count; i++) {
      db.transaction(() => {
        update.run(status, i);
        event.run(JSON.stringify({ type: `message.${status}`, message_id: i }));
        done.run(job.run(i).lastInsertRowid);
      })();
    }
  }
  return ms(process.hrtime.bigint() - started);
}

async function advance() {
  const count = 1_000;
  const sandbox = await spawnFirstLine([BIN, "serve", "--json", "--quiet", "--port", "0", "--otp-port", "0", "--db", ":memory:", "--clock", "manual", "--no-state-file"]);
  const { base_url: base } = JSON.parse(sandbox.line);
  const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
  // An advance over a day with nothing due must take milliseconds (SANDBOX.md section 4).
  const idleStart = process.hrtime.bigint();
  await (await fetch(`${base}/sandbox/v1/clock/advance`, { method: "POST", headers, body: JSON.stringify({ duration: "24h" }) })).text();
  const idleMs = ms(process.hrtime.bigint() - idleStart);
  for (let i = 0; i < count; i++) {
    // Distinct recipients with the default profile: iMessage, read receipts on.
    const to = `+1415555${String(2000 + i).padStart(4, "0")}`;
    const res = await fetch(`${base}/v1/messages`, { method: "POST", headers, body: JSON.stringify({ to, from_handle: "+14155550101", text: `m${i}` }) });
    if (res.status !== 202) throw new Error(`send ${i}: ${res.status} ${await res.text()}`);
  }
  const started = process.hrtime.bigint();
  const res = await fetch(`${base}/sandbox/v1/clock/advance`, { method: "POST", headers, body: JSON.stringify({ duration: "24h" }) });
  const elapsed = ms(process.hrtime.bigint() - started);
  if (res.status !== 200) throw new Error(`advance: ${res.status} ${await res.text()}`);
  const readCount = await countEvents(base, headers, "message.read");
  await stop(sandbox.child);
  const reference = rawTransitions(count);
  results.advance = { idle_24h_ms: idleMs, messages: count, read: readCount, msgctl_ms: elapsed, reference_ms: reference, ratio: elapsed / reference };
}

async function countEvents(base, headers, type) {
  let after = 0;
  let total = 0;
  for (;;) {
    const page = await (await fetch(`${base}/sandbox/v1/events?after=${after}&limit=100`, { headers })).json();
    total += page.data.filter((e) => e.type === type).length;
    if (!page.has_more) return total;
    after = page.data.at(-1).seq;
  }
}

const only = process.argv[2];
if (!only || only === "throughput") await throughput();
if (!only || only === "startup") await startup();
if (!only || only === "advance") await advance();

const report = JSON.stringify({ date: new Date().toISOString(), node: process.version, ...results }, null, 2);
console.log(report);
writeFileSync(join(ROOT, "bench/results.json"), `${report}\n`);
