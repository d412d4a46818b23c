// The send path: POST /v1/messages throughput against the floor, and start-up to the first 200.
import { join } from "node:path";
import autocannon from "autocannon";
import {
  BIN,
  cpuMs,
  DURATION_S,
  KEY,
  median,
  ms,
  ROOT,
  round,
  scratch,
  serve,
  spawnFirstLine,
  stop,
} from "./common.mjs";

/**
 * The load on one server process: its rate and latency, and the CPU time it spent per request
 * (µs). On a shared virtual machine the rate moves with what else runs; CPU per request moves less.
 */
async function load(url, headers, pid) {
  const body = JSON.stringify({ to: "+14155550191", from_handle: "+14155550101", text: "Hello from the benchmark" });
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({
    url,
    method: "POST",
    connections: 50,
    duration: DURATION_S,
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  const cpuUs = cpuBefore === null ? null : round(((cpuMs(pid) - cpuBefore) * 1_000) / result.requests.total, 0);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpu_us_per_request: cpuUs,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * POST /v1/messages with autocannon (50 connections) against `msgctl serve --clock manual` on a
 * database file, and against the floor: a bare node:http server that parses the JSON body and
 * does one prepared SQLite insert per request (reference-server.mjs). Run as pairs, the floor
 * first, so each ratio compares two loads measured seconds apart; the figure is the median pair
 * (three pairs: with two, the "median" was the better one).
 */
export async function throughput(pairs = 3) {
  const runs = [];
  for (let i = 0; i < pairs; i++) {
    const dir = scratch();
    const reference = await spawnFirstLine([join(ROOT, "bench/reference-server.mjs"), join(dir, "reference.db")]);
    const ref = await load(reference.line, {}, reference.child.pid);
    await stop(reference.child);
    const { child, base } = await serve(["--db", join(dir, "sandbox.db"), "--clock", "manual"]);
    const msgctl = await load(`${base}/v1/messages`, { authorization: `Bearer ${KEY}` }, child.pid);
    await stop(child);
    const cpuRatio =
      msgctl.cpu_us_per_request && ref.cpu_us_per_request
        ? round(ref.cpu_us_per_request / msgctl.cpu_us_per_request)
        : null;
    runs.push({ reference: ref, msgctl, ratio: round(msgctl.rps / ref.rps), cpu_ratio: cpuRatio });
  }
  // cpu_ratio: the floor's CPU per request over msgctl's (1 = as cheap as the floor), the steadier figure.
  return { pairs: runs, ratio: median(runs.map((r) => r.ratio)), cpu_ratio: median(runs.map((r) => r.cpu_ratio)) };
}

async function firstOk(url) {
  for (;;) {
    try {
      if ((await fetch(url)).status === 200) return process.hrtime.bigint();
    } catch {
      // not listening yet
    }
  }
}

/** Spawn of `msgctl serve --db :memory:` to its first 200 on /healthz vs a bare node:http server, median of 7. */
export async function startup() {
  const runs = { reference: [], msgctl: [] };
  const bare =
    "require('node:http').createServer((q,s)=>s.end('ok')).listen(0,'127.0.0.1',function(){console.log('http://127.0.0.1:'+this.address().port)})";
  for (let i = 0; i < 7; i++) {
    const ref = await spawnFirstLine(["-e", bare]);
    runs.reference.push(ms((await firstOk(ref.line)) - ref.started));
    await stop(ref.child);
    const sandbox = await spawnFirstLine([
      BIN,
      "serve",
      "--json",
      "--quiet",
      "--port",
      "0",
      "--otp-port",
      "0",
      "--db",
      ":memory:",
      "--no-state-file",
    ]);
    runs.msgctl.push(ms((await firstOk(`${JSON.parse(sandbox.line).base_url}/healthz`)) - sandbox.started));
    await stop(sandbox.child);
  }
  const reference = median(runs.reference);
  const msgctl = median(runs.msgctl);
  return { reference_ms: round(reference, 1), msgctl_ms: round(msgctl, 1), ratio: round(msgctl / reference) };
}
