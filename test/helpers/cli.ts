import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { resolve } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";

/** The real CLI entry (built by the global setup). */
export const BIN = resolve(import.meta.dirname, "../../bin/msgctl");

/** What a CLI run printed and how it exited. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `msgctl ARGS` to completion. MSGCTL_* variables of the test process are not passed on. */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string } = {},
): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1", ...options.env };
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: options.cwd, env, timeout: 30_000 },
      (error, stdout, stderr) => {
        done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** A `msgctl serve --json` process and its ready line. */
export interface ServeProcess {
  ready: {
    event: "ready";
    base_url: string;
    otp_url: string;
    inspector_url: string;
    accounts: { name: string; api_key: string; otp_api_key: string; numbers: { handle: string }[] }[];
  };
  child: ChildProcessWithoutNullStreams;
  /** Later stdout lines (JSON log records). */
  lines: string[];
  stderr: string[];
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Spawns `msgctl serve --json ARGS` and resolves once its first stdout line (ready) arrives. */
export function spawnServe(args: string[], options: { cwd?: string } = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, "serve", "--json", ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" },
  });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const lines: string[] = [];
  const stderr: string[] = [];
  child.stderr.on("data", (chunk) => stderr.push(String(chunk)));
  return new Promise((resolveReady, reject) => {
    const reader = createInterface({ input: child.stdout });
    reader.on("line", (line) => {
      lines.push(line);
      if (lines.length === 1) {
        try {
          const ready = JSON.parse(line);
          resolveReady({
            ready,
            child,
            lines,
            stderr,
            stop(signal = "SIGTERM") {
              child.kill(signal);
              return exited;
            },
          });
        } catch {
          reject(new Error(`serve's first line is not JSON: ${line}`));
        }
      }
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before ready: ${stderr.join("")}`)));
  });
}

/** A `msgctl serve` process for a test file, with the CLI pointed at it. */
export interface ServeHandle {
  serve: ServeProcess;
  /** Runs `msgctl ARGS` against this sandbox. */
  cli(...args: string[]): Promise<CliResult>;
  /** Runs `msgctl ARGS --json`, expects exit 0, and parses stdout. */
  json(...args: string[]): Promise<any>;
  /**
   * Wipes and re-seeds the sandbox over the control API: a test's set-up, not the command under
   * test, so it spares a CLI process per test (`msgctl reset` has tests of its own).
   */
  reset(): Promise<void>;
}

/**
 * Spawns `msgctl serve --json` (free ports, in-memory database, manual clock, no state file)
 * before the tests of a describe block and stops it after them.
 */
export function useServe(extraArgs: string[] = [], key = "sk_test_acme_0000000000000000"): ServeHandle {
  const handle = {} as ServeHandle;
  let flags: string[] = [];
  beforeAll(async () => {
    handle.serve = await spawnServe([
      "--port",
      "0",
      "--otp-port",
      "0",
      "--db",
      ":memory:",
      "--clock",
      "manual",
      "--no-state-file",
      ...extraArgs,
    ]);
    flags = ["--base-url", handle.serve.ready.base_url, "--otp-url", handle.serve.ready.otp_url, "--api-key", key];
  });
  afterAll(async () => {
    if (handle.serve?.child.exitCode === null) await handle.serve.stop();
  });
  handle.cli = (...args) => runCli([...args, ...flags]);
  handle.json = async (...args) => {
    const result = await runCli([...args, "--json", ...flags]);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout);
  };
  handle.reset = async () => {
    const response = await fetch(`${handle.serve.ready.base_url}/sandbox/v1/reset`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status, await response.text()).toBe(200);
  };
  return handle;
}

/** A control or API call straight over HTTP with `key` (the default account's): set-up and traffic, not the commands under test. */
export async function callApi(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  key = "sk_test_acme_0000000000000000",
) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data: any };
  expect(response.ok, JSON.stringify(json)).toBe(true);
  return json.data;
}
