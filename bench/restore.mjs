// Restore of a snapshot (POST /sandbox/v1/snapshots/:name/restore) holding 10,000 messages that
// have reached `read`, 20 webhooks and 1,000 deliveries waiting for their second attempt, on a
// database file, as a suite restores before each test: each run sends a message first, then
// restores the snapshot saved (or restored) last. `full_*`: restores that copy every table (two
// snapshots restored in turn). The reference is SQLite's own online backup API (better-sqlite3's
// `backup`) copying the same database file to a new one, in the same run.
import Database from "better-sqlite3";
import { join } from "node:path";
import {
  advance,
  call,
  cpuMs,
  elapsedMs,
  inParallel,
  median,
  percentile,
  round,
  scratch,
  sendMessages,
  serve,
  stop,
} from "./common.mjs";

const MESSAGES = 10_000;
const WEBHOOKS = 20;
/** Inbound messages whose `message.received` goes to every endpoint: 50 × 20 = 1,000 deliveries. */
const INBOUND = 50;
const RUNS = Number(process.env.BENCH_RESTORE_RUNS ?? 21);
const FULL_RUNS = 7;

/** Fails unless `res` has the status. */
const expectStatus = (res, status, what) => {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

/** The state measured, built over the API: messages read, webhooks, deliveries waiting for a retry. */
async function buildState(base) {
  await sendMessages(base, MESSAGES);
  await advance(base, "24h");
  // Port 9 (discard) on loopback: nothing listens, every first attempt is refused at once and
  // its delivery waits for the ladder's next rung.
  for (let i = 0; i < WEBHOOKS; i++) {
    const body = { url: `http://127.0.0.1:9/hooks/${i}`, events: ["message.received"] };
    expectStatus(await call(`${base}/v1/webhooks`, { method: "POST", body }), 201, "webhook");
  }
  await inParallel(INBOUND, 8, async (i) => {
    const body = { from: `+1415555${String(2000 + i).padStart(4, "0")}`, to: "+14155550101", text: `in ${i}` };
    expectStatus(await call(`${base}/sandbox/v1/simulate/inbound`, { method: "POST", body }), 201, "inbound");
  });
  expectStatus(await call(`${base}/sandbox/v1/settle`, { method: "POST", body: { timeout: "60s" } }), 200, "settle");
  let pending = 0;
  for (let before = ""; ; ) {
    const page = expectStatus(
      await call(`${base}/sandbox/v1/deliveries?status=pending&limit=100${before ? `&before=${before}` : ""}`),
      200,
      "deliveries",
    );
    pending += page.data.length;
    if (!page.has_more) break;
    before = page.data.at(-1).created_at;
  }
  return pending;
}

/** SQLite's backup API copying `file` to a new file each run: the median and each run's time. */
async function backupTimes(file, folder) {
  const source = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const started = process.hrtime.bigint();
      await source.backup(join(folder, `backup-${i}.db`));
      times.push(elapsedMs(started));
    }
    return times;
  } finally {
    source.close();
  }
}

/** The restore, timed over HTTP as a test suite calls it before each test. */
export async function restore() {
  const folder = scratch();
  const db = join(folder, "sandbox.db");
  const { child, base } = await serve(["--db", db, "--clock", "manual"]);
  try {
    const pending = await buildState(base);
    if (pending !== INBOUND * WEBHOOKS) throw new Error(`restore: ${pending} pending deliveries, expected 1,000`);
    const saved = expectStatus(
      await call(`${base}/sandbox/v1/snapshots`, { method: "POST", body: { name: "bench" } }),
      201,
      "save",
    ).data;

    const times = [];
    const cpuBefore = cpuMs(child.pid);
    for (let i = 0; i < RUNS; i++) {
      // Something to take away each time, as a test leaves behind.
      await call(`${base}/v1/messages`, {
        method: "POST",
        body: { to: "+14155552000", from_handle: "+14155550101", text: `test ${i}` },
      });
      const started = process.hrtime.bigint();
      expectStatus(await call(`${base}/sandbox/v1/snapshots/bench/restore`, { method: "POST" }), 200, "restore");
      times.push(elapsedMs(started));
    }
    const cpu = (cpuMs(child.pid) - cpuBefore) / RUNS;
    const check = expectStatus(await call(`${base}/v1/messages?limit=1`), 200, "messages").data;
    if (check[0]?.text?.startsWith("test ")) throw new Error("restore: a message made after the save is still there");

    // A restore of content the sandbox was not just saved or restored from copies every table:
    // two snapshots of the same state, restored in turn.
    expectStatus(await call(`${base}/sandbox/v1/snapshots`, { method: "POST", body: { name: "other" } }), 201, "save");
    const full = [];
    for (let i = 0; i < FULL_RUNS; i++) {
      const name = i % 2 === 0 ? "bench" : "other";
      const started = process.hrtime.bigint();
      expectStatus(await call(`${base}/sandbox/v1/snapshots/${name}/restore`, { method: "POST" }), 200, "restore");
      full.push(elapsedMs(started));
    }

    const reference = await backupTimes(db, folder);
    const p50 = median(times);
    const referenceP50 = median(reference);
    return {
      messages: MESSAGES,
      webhooks: WEBHOOKS,
      pending_deliveries: pending,
      snapshot_bytes: saved.size_bytes,
      runs: RUNS,
      p50_ms: round(p50, 1),
      p95_ms: round(percentile(times, 95), 1),
      server_cpu_ms: round(cpu, 1),
      backup_p50_ms: round(referenceP50, 1),
      ratio: round(p50 / referenceP50),
      full_p50_ms: round(median(full), 1),
      full_ratio: round(median(full) / referenceP50),
    };
  } finally {
    await stop(child);
  }
}
