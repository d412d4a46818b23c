// Start-up of `msgctl serve --db :memory:`: spawn to `/healthz` 200 on both hosts, for the
// single binary (`npm run build:binary`), `npx msgctl` (npm's exec, as a project that installed
// msgctl runs it) and `node bin/msgctl`, each beside bare `node -e 0` measured in the same run.
//   node bench/startup.mjs [runs]        targets: binary ≤ ×2.0, node bin/msgctl ≤ ×2.5 bare node
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { scratch } from "./common.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const RUNS = Number(process.argv[2] ?? 11);
const SERVE = ["serve", "--json", "--quiet", "--port", "0", "--otp-port", "0", "--db", ":memory:", "--no-state-file"];
const BINARY = join(ROOT, "dist/bin/msgctl");
const NPX = process.platform === "win32" ? "npx.cmd" : "npx";

/** A project whose only bin is a no-op: `npx` of it is npm's own floor, the least `npx msgctl` can take. */
function noopProject() {
  const dir = scratch();
  mkdirSync(join(dir, "node_modules/.bin"), { recursive: true });
  writeFileSync(join(dir, "package.json"), '{"name":"npx-floor","version":"1.0.0"}\n');
  writeFileSync(join(dir, "node_modules/.bin/noop"), "#!/usr/bin/env node\n");
  chmodSync(join(dir, "node_modules/.bin/noop"), 0o755);
  return dir;
}

const variants = {
  "bare node -e 0": { command: process.execPath, args: ["-e", "0"], serves: false },
  "npx of a no-op bin": { command: NPX, args: ["--no-install", "noop"], serves: false, cwd: noopProject() },
  "binary (dist/bin/msgctl)": { command: BINARY, args: SERVE, serves: true, needs: BINARY },
  "npx msgctl": { command: NPX, args: ["--no-install", "msgctl", ...SERVE], serves: true },
  "node bin/msgctl": { command: process.execPath, args: [join(ROOT, "bin/msgctl"), ...SERVE], serves: true },
};

async function healthy(url) {
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) return;
    } catch {
      // not listening yet
    }
  }
}

/** Milliseconds from spawn to exit (bare node) or to both hosts answering `/healthz` 200. */
function once({ command, args, serves, cwd = ROOT }) {
  const started = process.hrtime.bigint();
  // Its own process group: npx runs msgctl as a child of npm, and both must stop.
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "inherit"], detached: true });
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
  return new Promise((done, fail) => {
    if (!serves) {
      child.once("exit", () => done(elapsed()));
      return;
    }
    child.once("exit", (code) => fail(new Error(`${command} ${args.join(" ")} exited with ${code}`)));
    createInterface({ input: child.stdout }).once("line", async (line) => {
      const ready = JSON.parse(line);
      await Promise.all([healthy(ready.base_url), healthy(ready.otp_url)]);
      const ms = elapsed();
      child.removeAllListeners("exit");
      child.once("exit", () => done(ms));
      process.kill(-child.pid, "SIGTERM");
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const runs = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
// Interleaved, so a slow phase of the machine touches every variant alike.
for (let i = 0; i < RUNS; i++) {
  for (const [name, variant] of Object.entries(variants)) {
    if (variant.needs && !existsSync(variant.needs)) continue;
    runs[name].push(await once(variant));
  }
}
const bare = median(runs["bare node -e 0"]);
const results = {};
for (const [name, values] of Object.entries(runs)) {
  if (values.length === 0) {
    console.log(`${name.padEnd(26)} skipped (run \`npm run build:binary\` first)`);
    continue;
  }
  const ms = median(values);
  results[name] = {
    median_ms: Math.round(ms),
    min_ms: Math.round(Math.min(...values)),
    vs_bare_node: Number((ms / bare).toFixed(2)),
  };
  console.log(
    `${name.padEnd(26)} median ${ms.toFixed(0).padStart(4)} ms  (min ${Math.min(...values).toFixed(0)} ms, ×${(ms / bare).toFixed(2)} bare node)`,
  );
}
if (process.env.BENCH_JSON) console.log(JSON.stringify(results));
