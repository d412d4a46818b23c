// The reference of the delivery rows, in a process of its own: `node bench/bare-loop.mjs URL
// FIRSTS [RETRIES]` posts FIRSTS bodies one at a time, then RETRIES with RETRY_CONCURRENCY at a
// time, to the receiver at URL, and prints {"ms", "cpu_ms"}. A fresh process starts as cold as
// msgctl's delivery code is at the first advance: the same V8 warm-up on both sides.
import { ownCpuMs, round } from "./common.mjs";
import { bareLoop, RETRY_CONCURRENCY } from "./delivery.mjs";

const [url, firsts, retries = "0"] = process.argv.slice(2);
const cpuBefore = ownCpuMs();
let ms = await bareLoop(url, Number(firsts), 1);
if (Number(retries) > 0) ms += await bareLoop(url, Number(retries), RETRY_CONCURRENCY);
console.log(JSON.stringify({ ms: round(ms, 1), cpu_ms: round(ownCpuMs() - cpuBefore, 0) }));
