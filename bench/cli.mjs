// One client command against a running sandbox, as a script calling msgctl in a loop pays it:
// `msgctl clock --json`, spawn to exit, beside bare `node -e 0` measured in the same run (runs
// interleaved, so a slow phase of the machine weighs on both). Peak memory from /usr/bin/time.
// The single binary is measured too when it is built (`npm run build:binary`).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { BIN, KEY, ROOT, median, round, serve, stop } from "./common.mjs";

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 15);
const BINARY = join(ROOT, "dist/bin/msgctl");
const TIME = "/usr/bin/time";

/** Wall milliseconds of one run, and its peak resident set in MB when /usr/bin/time is there. */
function timed(command, args) {
  const withTime = existsSync(TIME);
  const started = process.hrtime.bigint();
  const result = withTime
    ? spawnSync(TIME, ["-f", "%M", command, ...args], { encoding: "utf8" })
    : spawnSync(command, args, { encoding: "utf8" });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  const peakKb = withTime ? Number(result.stderr.trim().split("\n").at(-1)) : Number.NaN;
  return { wall, peakMb: peakKb / 1024 };
}

/** Client command wall time and peak memory, each as a ratio to bare node's. */
export async function cliCommand() {
  const sandbox = await serve(["--db", ":memory:", "--clock", "manual"]);
  const client = ["clock", "--json", "--base-url", sandbox.base, "--api-key", KEY];
  const variants = {
    node: [process.execPath, ["-e", "0"]],
    msgctl: [process.execPath, [BIN, ...client]],
    ...(existsSync(BINARY) ? { binary: [BINARY, client] } : {}),
  };
  const runs = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  try {
    for (let i = 0; i < RUNS; i++)
      for (const [name, [command, args]] of Object.entries(variants)) runs[name].push(timed(command, args));
  } finally {
    await stop(sandbox.child);
  }
  const wall = (name) => median(runs[name].map((run) => run.wall));
  const peak = (name) => Math.max(...runs[name].map((run) => run.peakMb));
  const figures = { reference_ms: round(wall("node"), 1), reference_peak_mb: round(peak("node"), 1) };
  for (const name of Object.keys(variants).filter((name) => name !== "node")) {
    figures[`${name}_ms`] = round(wall(name), 1);
    figures[`${name}_ratio`] = round(wall(name) / wall("node"));
    figures[`${name}_peak_mb`] = round(peak(name), 1);
  }
  return figures;
}
