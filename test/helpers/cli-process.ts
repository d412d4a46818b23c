import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { tmpdir } from "node:os";
import { createInterface } from "node:readline";
import { BIN } from "./cli.js";

/** A long-running `msgctl` command (tail, listen) and what it printed so far. */
export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  lines: string[];
  stderr: () => string;
  /** Resolves with the first stdout line (already printed or to come) that satisfies `test`. */
  line(test: (line: string) => boolean, what?: string): Promise<string>;
  /** Resolves once stderr contains `text`. */
  stderrContains(text: string): Promise<void>;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

// A guard against a hung child, not a wait: the awaited lines arrive as soon as the work is done.
const GUARD_MS = 15_000;

/**
 * Spawns `msgctl ARGS` (no colour, no MSGCTL_* from the test process) without waiting for it, in
 * `cwd` (by default the run's temporary folder, so that nothing it keeps in its state directory,
 * such as listen's secret, lands in the checkout).
 */
export function spawnCli(args: string[], options: { cwd?: string } = {}): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? tmpdir(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" },
  });
  const lines: string[] = [];
  let stderr = "";
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(line);
    notify();
  });
  child.stderr.on("data", (chunk) => {
    stderr += String(chunk);
    notify();
  });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const until = <T>(check: () => T | undefined, what: string) =>
    new Promise<T>((resolve, reject) => {
      const guard = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`msgctl ${args.join(" ")}: no ${what}.\nstdout:\n${lines.join("\n")}\nstderr:\n${stderr}`));
      }, GUARD_MS);
      const waiter = () => {
        const found = check();
        if (found === undefined) return;
        clearTimeout(guard);
        waiters.delete(waiter);
        resolve(found);
      };
      waiters.add(waiter);
      void exited.then(() => setImmediate(waiter));
      waiter();
    });
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    line: (test, what = "matching line") => until(() => lines.find(test), what),
    stderrContains: (text) =>
      until(() => (stderr.includes(text) ? true : undefined), `"${text}" on stderr`).then(() => undefined),
    stop(signal = "SIGINT") {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
