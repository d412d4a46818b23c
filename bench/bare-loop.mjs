// The reference of the delivery rows, in a process of its own: `node bench/bare-loop.mjs URL
// FIRSTS [RETRIES] [ROUNDS]` posts FIRSTS bodies one at a time, then RETRIES with
// RETRY_CONCURRENCY at a time, to the receiver at URL, ROUNDS times (1), and prints {"ms",
// "cpu_ms"} of the last round. A fresh process starts as cold as msgctl's delivery code is at the
// first advance: the same V8 warm-up on both sides; its second round is as warm as a second advance.
import { ownCpuMs, round } from "./common.mjs";
import { bareLoop, RETRY_CONCURRENCY } from "./delivery.mjs";

const [url, firsts, retries = "0", rounds = "1"] = process.argv.slice(2);
let last;
for (let i = 0; i < Number(rounds); i++) {
  const cpuBefore = ownCpuMs();
  let ms = await bareLoop(url, Number(firsts), 1);
  if (Number(retries) > 0) ms += await bareLoop(url, Number(retries), RETRY_CONCURRENCY);
  last = { ms: round(ms, 1), cpu_ms: round(ownCpuMs() - cpuBefore, 0) };
}
console.log(JSON.stringify(last));
