import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { BIN } from "./cli.js";

/**
 * A `msgctl serve` process driven as a CI script drives one (Python's Popen, Go's exec): its
 * stdout is a pipe the test reads only when it says so, so that a reader that stops reading can
 * be played. Signals and exits are observed from outside.
 */
export interface RawServe {
  child: ChildProcessWithoutNullStreams;
  /** Every stdout line read so far. */
  lines: string[];
  stderr: () => string;
  /** Resolves with exit code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** Reads stdout until its first line (the ready line), then stops reading; resolves with it parsed. */
  ready(): Promise<{ base_url: string; otp_url: string; accounts: { api_key: string }[] }>;
  /** Reads stdout until a line satisfies `test`, then stops reading again. */
  readUntil(test: (line: string) => boolean): Promise<string>;
  /** Reads stdout to its end; resolves with the lines not read before. */
  rest(): Promise<string[]>;
}

// A guard against a hung child, not a wait: what is awaited comes as soon as it is done.
const GUARD_MS = 15_000;

/** Spawns `msgctl ARGS` (or `command ARGS`: the single binary) with stdout read only on demand. */
export function spawnRaw(args: string[], options: { cwd?: string; command?: string; env?: NodeJS.ProcessEnv } = {}) {
  const [file, argv] = options.command ? [options.command, args] : [process.execPath, [BIN, ...args]];
  const child = spawn(file, argv, {
    cwd: options.cwd,
    env: options.env ?? { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" },
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((done) =>
    child.once("exit", (code, signal) => done({ code, signal, at: performance.now() })),
  );
  const lines: string[] = [];
  let partial = "";
  let ended = false;
  // What reads now: a line test, or everything to the end. Nothing reads between them, and then
  // the stream's buffer fills and the pipe behind it: the child meets a reader that stopped.
  let reader: { test?: (line: string) => boolean; done: () => void } | undefined;
  const consume = (chunk: Buffer) => {
    const parts = (partial + String(chunk)).split("\n");
    partial = parts.pop() ?? "";
    lines.push(...parts);
  };
  const pump = () => {
    while (reader) {
      const before = lines.length;
      const chunk = child.stdout.read() as Buffer | null;
      if (chunk === null) break;
      consume(chunk);
      if (reader.test && lines.slice(before).some(reader.test)) reader.done();
    }
    if (ended) reader?.done();
  };
  // A 'readable' listener, never 'data': node resumes (and empties) unread stdio of a child that
  // exits unless something listens, and 'data' would read without end.
  child.stdout.on("readable", pump);
  child.stdout.once("end", () => {
    ended = true;
    pump();
  });
  const readUntil = (test: (line: string) => boolean) =>
    new Promise<string>((resolve, reject) => {
      const guard = setTimeout(() => {
        reader = undefined;
        reject(new Error(`no such line on stdout; stderr: ${stderr}`));
      }, GUARD_MS);
      const settle = () => {
        clearTimeout(guard);
        reader = undefined;
        const found = lines.find(test);
        if (found === undefined) reject(new Error(`stdout ended first; stderr: ${stderr}`));
        else resolve(found);
      };
      if (lines.some(test)) return settle();
      reader = { test, done: settle };
      pump();
    });
  const rest = () =>
    new Promise<string[]>((resolve) => {
      const start = lines.length;
      reader = {
        done: () => {
          reader = undefined;
          resolve(lines.slice(start));
        },
      };
      pump();
    });
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    ready: async () => JSON.parse(await readUntil(() => true)),
    readUntil,
    rest,
  } satisfies RawServe;
}

/**
 * Resolves once the process runs msgctl's entry script, which names the process `msgctl …`
 * right after it starts listening for signals (before that, node itself is starting, and a
 * signal then ends any node program). Linux: read from /proc.
 */
export async function entered(pid: number): Promise<void> {
  const until = performance.now() + GUARD_MS;
  while (performance.now() < until) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("msgctl")) return;
    } catch {
      return; // it has exited already: the caller sees how
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`process ${pid} never started msgctl`);
}
