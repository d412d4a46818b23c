// `npm run fuzz [-- --seeds 1,2,3 --requests 3000 --default-heap --no-latency]`: seeded fuzzing of
// the built `msgctl serve`, then the latency of the largest legal body on the react route. Prints
// the figures; exits 1 on any finding. The same seed sends the same requests: a finding is
// reproduced by its seed. The server runs with a small heap (harness.ts, SMALL_HEAP) so that
// resident memory shows what is retained; `--default-heap` runs it with V8's own sizing.
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { runFuzz, SMALL_HEAP, type FuzzReport } from "./harness.js";
import { measureReactLatency } from "./react-latency.js";

const { values } = parseArgs({
  options: {
    seeds: { type: "string", default: "1,2,3" },
    requests: { type: "string", default: "3000" },
    "no-latency": { type: "boolean", default: false },
    "default-heap": { type: "boolean", default: false },
  },
});
const seeds = values.seeds.split(",").map(Number);
const requests = Number(values.requests);

const summary = (r: FuzzReport) => {
  const fivexx = Object.entries(r.statuses)
    .filter(([status]) => Number(status) >= 500)
    .reduce((n, [, count]) => n + count, 0);
  const resets = Object.values(r.resets).reduce((n, count) => n + count, 0);
  return [
    `seed ${r.seed}: ${r.requests} requests in ${r.seconds.toFixed(1)} s`,
    `  5xx: ${fivexx}; outside the spec's shape: ${r.failures.length}; resets (no answer possible): ${resets}${resets ? ` ${JSON.stringify(r.resets)}` : ""}`,
    `  statuses: ${Object.entries(r.statuses)
      .map(([s, n]) => `${s}×${n}`)
      .join(" ")}`,
    `  alive: ${r.alive} (${r.healthChecks} /healthz checks)`,
    `  RSS after setup ${r.rssAfterSetupMb.toFixed(1)} MB; every 250 requests: ${r.rssTrace.join(" ")}; at the end ${r.rssEndMb.toFixed(1)} MB; growth ${r.rssGrowthMb.toFixed(1)} MB`,
  ].join("\n");
};

let failed = false;
for (const seed of seeds) {
  const nodeFlags = values["default-heap"] ? [] : SMALL_HEAP;
  const report = await runFuzz({
    seed,
    requests,
    nodeFlags,
    onProgress: (done) => process.stderr.write(`\rseed ${seed}: ${done}/${requests}`),
  });
  process.stderr.write("\r");
  console.log(summary(report));
  for (const finding of report.failures.slice(0, 20))
    console.log(`  ✘ #${finding.index}: ${finding.problem}\n      ${finding.request}`);
  if (report.failures.length > 0 || !report.alive || report.rssGrowthMb >= 50) failed = true;
}

if (!values["no-latency"]) {
  const latency = await measureReactLatency();
  console.log(
    `load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")} on ${cpus().length} cores`,
  );
  console.log(`largest legal body on POST /v1/messages/:id/react (${latency.bytes} bytes, ${latency.runs} runs each):`);
  for (const [name, ms] of Object.entries(latency.results)) {
    console.log(
      `  ${name}: status ${ms.status}, median ${ms.median.toFixed(1)} ms, max ${ms.max.toFixed(1)} ms, server CPU ${ms.cpuMs.toFixed(1)} ms per request`,
    );
  }
}
process.exit(failed ? 1 : 0);
