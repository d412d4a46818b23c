// Webhook delivery benchmarks: `clock advance 24h` over 1,000 sent messages with one endpoint on
// a local receiver (answering 200, then 500), and emit → delivery latency on a real clock. The
// reference is a bare node:http client loop posting the same number of bodies to the same receiver.
import { Agent, request } from "node:http";
import { join } from "node:path";
import {
  advance,
  allEvents,
  call,
  cpuMs,
  DURATION_S,
  elapsedMs,
  inParallel,
  percentile,
  ROOT,
  round,
  scratch,
  sendMessages,
  serve,
  spawnFirstLine,
  stop,
} from "./common.mjs";

const MESSAGES = 1_000;
/** The real-clock row's first seconds, reported apart from the steady load after them. */
const WARM_UP_S = 3;
/** The advance (and the bare loop's round) reported as warm. */
const WARM_ROUND = 3;
/** Retries run this many at a time in msgctl; the reference loop posts them the same way. */
export const RETRY_CONCURRENCY = 32;

const startReceiver = async (status) => {
  const { child, line } = await spawnFirstLine([join(ROOT, "bench/receiver.mjs"), String(status)]);
  return {
    child,
    url: line,
    stats: async () => (await call(line)).body,
    clear: () => call(line, { method: "DELETE" }),
  };
};

// A payload and headers the size of a real delivery (message.sent with its fields).
const BODY = JSON.stringify({
  type: "message.sent",
  message_id: "0193a8f2-7c3e-7a41-9d2e-5b7f0c1a2b3c",
  conversation_id: "5d0c2e1a-7c3e-4a41-9d2e-5b7f0c1a2b3c",
  status: "sent",
  channel: "imessage",
  from: "+14155550101",
  to: "+14155552000",
  sent_at: "2026-11-21T15:35:03.917Z",
});
const HEADERS = {
  "content-type": "application/json",
  "user-agent": "msgctl-webhooks/1.0",
  "x-service-signature": `t=1763739303,v1=${"0".repeat(64)}`,
  "x-msgctl-event-id": "9a4c3d51-7c3e-4a41-9d2e-5b7f0c1a2b3c",
  "x-msgctl-attempt": "1",
};

/** The reference: `count` POSTs to `url`, `concurrency` at a time over keep-alive connections. */
export async function bareLoop(url, count, concurrency) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const post = () =>
    new Promise((done, fail) => {
      const req = request(
        url,
        { method: "POST", agent, headers: { ...HEADERS, "content-length": Buffer.byteLength(BODY) } },
        (res) => {
          res.resume();
          res.on("end", done);
        },
      );
      req.on("error", fail);
      req.end(BODY);
    });
  const started = process.hrtime.bigint();
  await inParallel(count, concurrency, post);
  const took = elapsedMs(started);
  agent.destroy();
  return took;
}

/**
 * The reference of the real-clock row: a bare loop posting to the same receiver at the same rate,
 * paced the same way, one request at a time per connection; its p50/p99 request latency is what
 * the machine gives a delivery with nothing of msgctl in the way.
 */
async function bareLatency(url, perSecond, seconds) {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const post = () =>
    new Promise((done, fail) => {
      const started = performance.now();
      const req = request(
        url,
        { method: "POST", agent, headers: { ...HEADERS, "content-length": Buffer.byteLength(BODY) } },
        (res) => {
          res.resume();
          res.on("end", () => done(performance.now() - started));
        },
      );
      req.on("error", fail);
      req.end(BODY);
    });
  const total = Math.round(perSecond * seconds);
  const latencies = [];
  const started = performance.now();
  for (let sent = 0; sent < total; ) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1_000) * perSecond));
    const batch = [];
    for (; sent < due; sent++) batch.push(post().then((took) => latencies.push(took)));
    await Promise.all(batch);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  agent.destroy();
  return {
    posts: latencies.length,
    p50_ms: round(percentile(latencies, 50), 1),
    p99_ms: round(percentile(latencies, 99), 1),
  };
}

/** The reference loop in a fresh process (bare-loop.mjs): its wall and CPU milliseconds (of its last round). */
async function bareLoopProcess(url, firsts, retries, rounds = 1) {
  const { child, line } = await spawnFirstLine([
    join(ROOT, "bench/bare-loop.mjs"),
    url,
    String(firsts),
    String(retries),
    String(rounds),
  ]);
  await stop(child);
  return JSON.parse(line);
}

/**
 * `clock advance 24h` over 1,000 sent messages (3,000 events) with one endpoint answering
 * `status`. With 200: 3,000 first attempts, one at a time. With 500: each event also walks the
 * ladder, 7 attempts inside 24 h (21,000 in all); retries may run side by side.
 *
 * Like for like: the reference is a bare loop in a fresh process (its client code as cold as
 * msgctl's delivery code at its first advance), and both meet a receiver that has already
 * answered as many posts (a user's app that is up and running). The first reference run warms
 * the receiver and is reported apart (`cold_receiver_reference_ms`); msgctl and the second run
 * are compared.
 *
 * With 200 the row also times a third advance, each over another 1,000 messages, in the same
 * serve, beside the third round of a bare loop in one process: warm code on both sides, as in a
 * test suite's later advances (`warm_*`). One round does not warm either side (bench/HISTORY.md).
 */
export async function advanceWithWebhook(status) {
  const receiver = await startReceiver(status);
  const { child, base } = await serve([
    "--db",
    process.env.BENCH_DB ?? join(scratch(), "sandbox.db"),
    "--clock",
    "manual",
  ]);
  try {
    const hook = await call(`${base}/v1/webhooks`, { method: "POST", body: { url: receiver.url } });
    if (hook.status !== 201) throw new Error(`webhook: ${hook.status}`);
    await sendMessages(base, MESSAGES);
    const expected = status === 200 ? 3 * MESSAGES : 21 * MESSAGES;
    const firsts = 3 * MESSAGES;
    const coldReceiver = await bareLoopProcess(receiver.url, firsts, expected - firsts);
    await receiver.clear();
    const cpuBefore = cpuMs(child.pid);
    const mainCpuBefore = cpuMs(child.pid, { mainThread: true });
    const took = await advance(base, "24h");
    const cpu = cpuMs(child.pid) - cpuBefore;
    const mainCpu = cpuMs(child.pid, { mainThread: true }) - mainCpuBefore;
    const { posts, connections } = await receiver.stats();
    if (posts !== expected) throw new Error(`advance with a ${status} receiver: ${posts} posts, expected ${expected}`);
    const reference = await bareLoopProcess(receiver.url, firsts, expected - firsts);
    const warm = status === 200 ? await warmAdvance(base, child.pid, receiver, expected) : {};
    return {
      status,
      attempts: posts,
      connections,
      msgctl_ms: round(took, 1),
      reference_ms: reference.ms,
      ratio: round(took / reference.ms),
      // CPU time of the sandbox during the advance vs the bare loop's: steadier on a busy machine.
      msgctl_cpu_ms: round(cpu, 0),
      msgctl_main_thread_cpu_ms: round(mainCpu, 0),
      reference_cpu_ms: reference.cpu_ms,
      cpu_ratio: round(cpu / reference.cpu_ms),
      cold_receiver_reference_ms: coldReceiver.ms,
      ...warm,
    };
  } finally {
    await stop(child);
    await stop(receiver.child);
  }
}

/** The third advance, each over another 1,000 messages, beside a bare loop's third round (advanceWithWebhook). */
async function warmAdvance(base, pid, receiver, expected) {
  let took;
  let mainCpu;
  for (let round = 2; round <= WARM_ROUND; round++) {
    await sendMessages(base, MESSAGES);
    await receiver.clear();
    const mainCpuBefore = cpuMs(pid, { mainThread: true });
    took = await advance(base, "24h");
    mainCpu = cpuMs(pid, { mainThread: true }) - mainCpuBefore;
    const { posts } = await receiver.stats();
    if (posts !== expected) throw new Error(`advance ${round}: ${posts} posts, expected ${expected}`);
  }
  const reference = await bareLoopProcess(receiver.url, expected, 0, WARM_ROUND);
  return {
    warm_msgctl_ms: round(took, 1),
    warm_reference_ms: reference.ms,
    warm_ratio: round(took / reference.ms),
    warm_msgctl_main_thread_cpu_ms: round(mainCpu, 0),
  };
}

/**
 * A real clock at a steady 1,000 events/s: 333 sends a second (each makes message.sent,
 * delivered and read) for BENCH_SECONDS, one endpoint on a local receiver answering 200.
 * Latency is the receiver's arrival time minus the event's created_at (same machine clock), over the
 * whole run (p99_ms) and after its first WARM_UP_S seconds (steady_p99_ms), with the p99 of each second.
 */
export async function realClockLatency() {
  const receiver = await startReceiver(200);
  // Like the delivery rows: msgctl meets a receiver that has already answered (an app that is up).
  const warmUp = await bareLoopProcess(receiver.url, 3 * MESSAGES, 0);
  await receiver.clear();
  const { child, base } = await serve(["--db", join(scratch(), "sandbox.db"), "--clock", "real"]);
  try {
    await call(`${base}/v1/webhooks`, { method: "POST", body: { url: receiver.url } });
    const cpuBefore = cpuMs(child.pid);
    const mainCpuBefore = cpuMs(child.pid, { mainThread: true });
    const perSecond = 1_000 / 3;
    const total = Math.round(perSecond * DURATION_S);
    const started = performance.now();
    let sent = 0;
    // Paced in 10 ms slices so the load is steady, not a burst per second.
    while (sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1_000) * perSecond));
      const batch = [];
      for (; sent < due; sent++) {
        const to = `+1415555${String(2000 + (sent % 8000)).padStart(4, "0")}`;
        batch.push(
          call(`${base}/v1/messages`, { method: "POST", body: { to, from_handle: "+14155550101", text: `m${sent}` } }),
        );
      }
      await Promise.all(batch);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Let the last reads (2.7 s after their sends) be emitted and delivered.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const cpu = cpuMs(child.pid) - cpuBefore;
    const mainCpu = cpuMs(child.pid, { mainThread: true }) - mainCpuBefore;
    const events = await allEvents(base);
    const arrivals = new Map((await receiver.stats()).arrivals);
    const latencies = [];
    // Latencies by second of the run: the first seconds are the process warming up (V8 compiling
    // the delivery path while events keep coming), the rest is the steady load.
    const bySecond = [];
    const firstAt = Math.min(...events.map((event) => Date.parse(event.created_at)));
    let missing = 0;
    for (const event of events) {
      const at = arrivals.get(event.id);
      if (at === undefined) {
        missing++;
        continue;
      }
      const latency = at - Date.parse(event.created_at);
      latencies.push(latency);
      (bySecond[Math.floor((Date.parse(event.created_at) - firstAt) / 1_000)] ??= []).push(latency);
    }
    const steady = bySecond.slice(WARM_UP_S).flat();
    const seconds = (performance.now() - started) / 1_000 - 4;
    const reference = await bareLatency(receiver.url, events.length / seconds, seconds);
    return {
      events: events.length,
      events_per_s: round(events.length / seconds, 0),
      delivered: latencies.length,
      dropped: missing,
      p50_ms: round(percentile(latencies, 50), 1),
      p99_ms: round(percentile(latencies, 99), 1),
      steady_p99_ms: round(percentile(steady, 99), 1),
      p99_by_second_ms: bySecond.map((second) => round(percentile(second ?? [0], 99), 0)),
      max_ms: round(Math.max(...latencies), 1),
      // The sandbox's CPU time per second of load: above 1000 it cannot keep up on one core.
      msgctl_cpu_ms_per_s: round(cpu / (seconds + 4), 0),
      // The event loop's share: what a delivery waits for (the rest is V8's and SQLite's threads).
      msgctl_main_thread_cpu_ms_per_s: round(mainCpu / (seconds + 4), 0),
      reference,
      cold_receiver_reference_ms: warmUp.ms,
    };
  } finally {
    await stop(child);
    await stop(receiver.child);
  }
}
