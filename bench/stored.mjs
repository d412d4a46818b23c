// A million stored messages: GET /v1/messages (a page of 50, first and deep pages, with and
// without conversation_id) and GET /v1/chats (first and later pages) against `msgctl serve` on
// the generated database (bench/stored-db.mjs), each beside the same pages read by raw
// better-sqlite3 from the same file, in-process and behind a bare node:http server
// (bench/stored-reference.mjs), measured in the same run. Targets: msgctl p99 ≤ 5 ms, serve RSS
// ≤ 200 MB. Also serve's start-up on the million beside its start-up on an empty file.
// BENCH_STORED_DB reuses a generated file; BENCH_STORED_REQUESTS sets requests per case (1,000).
import { existsSync, readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { loadavg } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import {
  BIN,
  DURATION_S,
  elapsedMs,
  KEY,
  median,
  percentile,
  ROOT,
  round,
  scratch,
  spawnFirstLine,
  stop,
} from "./common.mjs";
import { generateStoredDb } from "./stored-db.mjs";
import { buildCases, referenceUrl, ROTATE } from "./stored-cases.mjs";
import { openReference, referenceQuery } from "./stored-reference.mjs";

const REQUESTS = Number(process.env.BENCH_STORED_REQUESTS ?? 1_000);
/** Requests alternate between msgctl and the reference in blocks, so both see the same machine. */
const BLOCK = 100;

const load = () => round(loadavg()[0], 1);

/** One GET over `agent` (one kept-alive socket); resolves with status, body and milliseconds. */
function get(agent, url, headers = {}) {
  const started = process.hrtime.bigint();
  return new Promise((done, fail) => {
    request(url, { agent, headers }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () =>
        done({ status: res.statusCode, body: Buffer.concat(chunks).toString("utf8"), ms: elapsedMs(started) }),
      );
    })
      .on("error", fail)
      .end();
  });
}

/** A process's resident memory now and at its peak (VmRSS, VmHWM), in MB. */
function vmStatus(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const mb = (field) => round(Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)[1]) / 1024, 1);
  return { rss_mb: mb("VmRSS"), peak_rss_mb: mb("VmHWM") };
}

const summary = (values) => ({
  p50: round(percentile(values, 50)),
  p99: round(percentile(values, 99)),
  max: round(Math.max(...values)),
});

/** The same pages of the same ids: the reference answers what msgctl answers. */
function sameIds(msgctlBody, referenceBody, label) {
  const ids = (body) =>
    JSON.parse(body)
      .data.map((item) => item.id)
      .join(",");
  if (ids(msgctlBody) !== ids(referenceBody))
    throw new Error(`${label}: msgctl and the reference disagree on the page`);
}

/** Sequential requests of every case, msgctl and the reference alternating in blocks. */
async function measureCases(cases, msgctlBase, referenceBase, inProcess) {
  const msgctlAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const referenceAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const results = {};
  for (const [label, requests] of Object.entries(cases)) {
    const headers = (query) => ({ authorization: `Bearer ${query.key ?? KEY}` });
    const msgctlOne = async (i) => {
      const [path, query] = requests[i % requests.length];
      const res = await get(msgctlAgent, msgctlBase + path, headers(query));
      if (res.status !== 200) throw new Error(`${label}: ${res.status} ${res.body}`);
      return res;
    };
    const referenceOne = (i) => {
      const [path, query] = requests[i % requests.length];
      return get(referenceAgent, referenceUrl(referenceBase, path, query));
    };
    // Warm both (and check they answer the same pages).
    for (let i = 0; i < Math.min(requests.length, ROTATE); i++)
      sameIds((await msgctlOne(i)).body, (await referenceOne(i)).body, label);
    const times = { msgctl: [], reference: [], raw: [] };
    for (let done = 0; done < REQUESTS; done += BLOCK) {
      for (let i = done; i < done + BLOCK; i++) times.reference.push((await referenceOne(i)).ms);
      for (let i = done; i < done + BLOCK; i++) times.msgctl.push((await msgctlOne(i)).ms);
    }
    for (let i = 0; i < REQUESTS; i++) {
      const [path, query] = requests[i % requests.length];
      const started = process.hrtime.bigint();
      if (path.startsWith("/v1/chats")) inProcess.chats(query);
      else inProcess.messages(query);
      times.raw.push(elapsedMs(started));
    }
    const msgctl = summary(times.msgctl);
    const reference = summary(times.reference);
    results[label] = {
      msgctl,
      reference_http: reference,
      raw_query: summary(times.raw),
      ratio_p50: round(msgctl.p50 / reference.p50),
      ratio_p99: round(msgctl.p99 / reference.p99),
      load: load(),
    };
    console.error(
      `  ${label}: msgctl ${msgctl.p50}/${msgctl.p99} ms, reference ${reference.p50}/${reference.p99} ms, raw ${results[label].raw_query.p50}/${results[label].raw_query.p99} ms`,
    );
  }
  msgctlAgent.destroy();
  referenceAgent.destroy();
  return results;
}

/** The first page with 8 connections for DURATION_S (5 s at most): req/s and latency. */
async function concurrent(msgctlBase, referenceBase, account) {
  const run = async (url, headers) => {
    const result = await autocannon({ url, connections: 8, duration: Math.min(DURATION_S, 5), headers });
    return {
      rps: round(result.requests.average, 0),
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx,
    };
  };
  const reference = await run(`${referenceBase}/messages?account=${account}&limit=50`, {});
  const msgctl = await run(`${msgctlBase}/v1/messages?limit=50`, { authorization: `Bearer ${KEY}` });
  return { msgctl, reference_http: reference, ratio_rps: round(msgctl.rps / reference.rps), load: load() };
}

/** serve's arguments; BENCH_SERVE_ARGS adds node flags (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`). */
const serveArgs = (db) => [
  ...(process.env.BENCH_SERVE_ARGS?.split(" ").filter(Boolean) ?? []),
  BIN,
  "serve",
  "--json",
  "--quiet",
  "--port",
  "0",
  "--otp-port",
  "0",
  "--no-state-file",
  "--clock",
  "manual",
  "--db",
  db,
];

/** Spawn of serve to the first 200 of GET /v1/messages (the first page), median of `runs`. */
async function startupOn(db, runs = 3) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const { child, line, started } = await spawnFirstLine(serveArgs(db));
    const agent = new Agent({ keepAlive: false });
    const res = await get(agent, `${JSON.parse(line).base_url}/v1/messages?limit=50`, {
      authorization: `Bearer ${KEY}`,
    });
    if (res.status !== 200) throw new Error(`start-up: ${res.status} ${res.body}`);
    times.push(elapsedMs(started));
    await stop(child);
  }
  return round(median(times), 1);
}

/** The whole benchmark: generate (or reuse), start-up, sequential cases, concurrency, RSS. */
export async function stored() {
  const result = { load_before: load() };
  let path = process.env.BENCH_STORED_DB;
  if (path && existsSync(path)) result.generator = { reused: path };
  else {
    result.generator = await generateStoredDb(path || join(ROOT, "bench/.data/stored.db"));
    path = result.generator.path;
    console.error(`  generated ${result.generator.messages} messages in ${result.generator.total_ms} ms`);
  }
  const { info, cases } = buildCases(path);
  Object.assign(result, info);

  // An empty file, made and migrated by a first start: what start-up costs without the million.
  const empty = join(scratch(), "empty.db");
  await startupOn(empty, 1);
  const startupEmpty = await startupOn(empty);
  const startupMillion = await startupOn(path);
  result.startup = {
    million_ms: startupMillion,
    empty_ms: startupEmpty,
    ratio: round(startupMillion / startupEmpty),
    load: load(),
  };
  console.error(
    `  start-up to the first page: ${startupMillion} ms on the million, ${startupEmpty} ms on an empty file`,
  );

  const { child, line } = await spawnFirstLine(serveArgs(path));
  const msgctlBase = JSON.parse(line).base_url;
  const idle = vmStatus(child.pid);
  const reference = await spawnFirstLine([join(ROOT, "bench/stored-reference.mjs"), path]);
  const inProcess = openReference(path);
  try {
    result.sequential = await measureCases(cases, msgctlBase, reference.line, inProcess);
    result.concurrent_first_page = await concurrent(
      msgctlBase,
      reference.line,
      cases["messages, first page"][0][1].account,
    );
    result.rss = {
      msgctl: vmStatus(child.pid),
      msgctl_at_start_mb: idle.rss_mb,
      reference_http: vmStatus(reference.child.pid),
      target_mb: 200,
    };
    console.error(
      `  8 connections, first page: msgctl ${result.concurrent_first_page.msgctl.rps} req/s (p99 ${result.concurrent_first_page.msgctl.p99} ms), reference ${result.concurrent_first_page.reference_http.rps} req/s (p99 ${result.concurrent_first_page.reference_http.p99} ms)`,
    );
    console.error(
      `  serve RSS: ${idle.rss_mb} MB at start, ${result.rss.msgctl.rss_mb} MB after the load, peak ${result.rss.msgctl.peak_rss_mb} MB (reference ${result.rss.reference_http.peak_rss_mb} MB)`,
    );
    const worst = Math.max(...Object.values(result.sequential).map((r) => r.msgctl.p99));
    result.worst_p99_ms = worst;
    result.targets_met = { p99_5ms: worst <= 5, rss_200mb: result.rss.msgctl.peak_rss_mb <= 200 };
  } finally {
    inProcess.db.close();
    await stop(child);
    await stop(reference.child);
  }
  result.load_after = load();
  console.error(markdownTable(result));
  return result;
}

/** The sequential figures as the table bench/HISTORY.md records. */
function markdownTable(result) {
  const rows = Object.entries(result.sequential).map(
    ([label, r]) =>
      `| ${label} | ${r.msgctl.p50} / ${r.msgctl.p99} | ${r.reference_http.p50} / ${r.reference_http.p99} | ${r.raw_query.p50} / ${r.raw_query.p99} | ×${r.ratio_p50} / ×${r.ratio_p99} |`,
  );
  return [
    "| query (page of 50) | msgctl p50 / p99 ms | bare node:http + SQLite p50 / p99 ms | raw SQLite in-process p50 / p99 ms | ratio to node:http p50 / p99 |",
    "|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}
