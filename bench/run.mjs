// msgctl benchmarks. Every figure is reported beside a reference measured in the same run on the
// same machine, and as a ratio to it, so the numbers mean something across machines and loads.
//   node bench/run.mjs [name…]   (default: all; BENCH_SECONDS sets load durations, default 10)
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { advanceToRead } from "./advance.mjs";
import { cliCommand } from "./cli.mjs";
import { ROOT } from "./common.mjs";
import { advanceWithWebhook, realClockLatency } from "./delivery.mjs";
import { restore } from "./restore.mjs";
import { startup, throughput } from "./send.mjs";
import { stored } from "./stored.mjs";

const BENCHMARKS = {
  /** `msgctl clock --json` against a running sandbox vs bare `node -e 0`. Target ≤ 1.5×, peak ≤ 60 MB. */
  cli: cliCommand,
  /** POST /v1/messages vs the floor (node:http + one prepared insert). Target ≥ 0.8×. */
  throughput: () => throughput(),
  /** serve to its first 200 vs bare node. */
  startup,
  /** advance 24 h, 1,000 messages to read, no webhook vs raw SQLite. Target ≤ 150 ms. */
  advance: advanceToRead,
  /** advance 24 h, 1,000 messages, one endpoint answering 200 vs a bare client loop. Target ≤ 1 s. */
  "delivery-200": () => advanceWithWebhook(200),
  /** The same, answering 500: 21,000 attempts. Target ≤ 3 s. */
  "delivery-500": () => advanceWithWebhook(500),
  /** Real clock, 1,000 events/s to one receiver: emit → arrival. Target p99 ≤ 50 ms, none dropped. */
  realtime: realClockLatency,
  /** 1,000,000 stored messages: pages of GET /v1/messages and /v1/chats vs raw SQLite. Target p99 ≤ 5 ms, RSS ≤ 200 MB. */
  stored,
  /** Restore of 10,000 messages, 20 webhooks, 1,000 pending deliveries vs SQLite's backup API copying the file. Target p50 ≤ 30 ms, ≤ 3×. */
  restore,
};

const asked = process.argv.slice(2);
for (const name of asked)
  if (!(name in BENCHMARKS))
    throw new Error(`unknown benchmark ${name} (known: ${Object.keys(BENCHMARKS).join(", ")})`);
const results = {};
for (const name of asked.length > 0 ? asked : Object.keys(BENCHMARKS)) {
  results[name] = await BENCHMARKS[name]();
  console.error(`${name}: ${JSON.stringify(results[name])}`);
}

const report = JSON.stringify({ date: new Date().toISOString(), node: process.version, ...results }, null, 2);
console.log(report);
writeFileSync(join(ROOT, "bench/results.json"), `${report}\n`);
