import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BIN, runCli, useServe } from "../helpers/cli.js";
import { spawnCli } from "../helpers/cli-process.js";
import { KEYS, spawnInPty } from "../helpers/pty.js";
import { startRequestTap } from "../helpers/request-tap.js";

// util-linux `script` runs a command on a new pty; with stdin not a terminal, that pty reports a
// size of 0 columns by 0 rows, as CI runners and some editors' terminals do.
const hasScript = (() => {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

/** `msgctl ARGS` on a zero-column pty: its output so far, its exit, and its node process. */
function onZeroColumnPty(args: string[]) {
  const command = `exec ${[process.execPath, BIN, ...args].map(quote).join(" ")}`;
  const child = spawn("script", ["-qefc", command, "/dev/null"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: "xterm" },
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const outputContains = async (text: string) => {
    for (let i = 0; i < 300 && !output.includes(text); i++) await new Promise((r) => setTimeout(r, 50));
    expect(output).toContain(text);
  };
  // `exec` makes msgctl's node the direct child of `script`.
  const msgctlPid = () =>
    Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8").trim().split(/\s+/)[0]);
  // A hung msgctl spins in a loop that ignores signals: SIGKILL it, not only `script`.
  const kill = () => {
    try {
      process.kill(msgctlPid(), "SIGKILL");
    } catch {
      // already gone
    }
    child.kill("SIGKILL");
  };
  return { output: () => output, exited, outputContains, msgctlPid, kill };
}

/** Resolves with the exit code, or "hung" when the process outlives `ms` (real time, a guard). */
const within = (exited: Promise<number | null>, ms: number) =>
  Promise.race([exited, new Promise<"hung">((done) => setTimeout(() => done("hung"), ms))]);

describe.skipIf(!hasScript)("waiting commands on a terminal with zero columns (no busy loop, signals end them)", () => {
  const sandbox = useServe();
  const flags = () => ["--base-url", sandbox.serve.ready.base_url, "--api-key", "sk_test_acme_0000000000000000"];

  it("send --wait read prints plain progress lines instead of a spinner, and times out as usual", async () => {
    const pty = onZeroColumnPty([
      "send",
      "--to",
      "+14155550191",
      "--from",
      "+14155550101",
      "--text",
      "hi",
      "--wait",
      "read",
      "--timeout",
      "1s",
      ...flags(),
    ]);
    const code = await within(pty.exited, 15_000);
    if (code === "hung") pty.kill();
    expect(code, pty.output().slice(-500)).toBe(1);
    expect(pty.output()).toContain("Waiting for");
    expect(pty.output()).toMatch(/still queued after 1s/);
    // No cursor-up / erase-line redraws: a spinner never started.
    expect(pty.output()).not.toMatch(/\u001b\[1A|\u001b\[2K/);
  });

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("%s ends a waiting `wait message` at once with exit %i", async (signal, status) => {
    const sent = await sandbox.json("send", "--to", "+14155550191", "--from", "+14155550101", "--text", "wait for me");
    const pty = onZeroColumnPty(["wait", "message", sent.id, "--status", "read", "--timeout", "60s", ...flags()]);
    await pty.outputContains(`Waiting for ${sent.id}`);
    process.kill(pty.msgctlPid(), signal);
    const code = await within(pty.exited, 5_000);
    if (code === "hung") pty.kill();
    expect(code).toBe(status);
  });

  it("Ctrl-C typed in a terminal with a width ends `wait message` and its spinner at once with exit 130", async () => {
    const sent = await sandbox.json("send", "--to", "+14155550191", "--from", "+14155550101", "--text", "wait for me");
    const term = spawnInPty(["wait", "message", sent.id, "--status", "read", "--timeout", "60s", ...flags()]);
    await term.waitFor(`Waiting for ${sent.id}`);
    term.type(KEYS.ctrlC);
    expect(await within(term.exited, 5_000)).toBe(130);
  });

  it("SIGINT ends `wait event` without a terminal too, with exit 130", async () => {
    const tap = await startRequestTap(sandbox.serve.ready.base_url);
    const waiting = spawnCli([
      "wait",
      "event",
      "message.failed",
      "--timeout",
      "60s",
      ...flags(),
      "--base-url",
      tap.url,
    ]);
    // It waits once the event stream has answered.
    await tap.seen(/^GET \/sandbox\/v1\/events\/stream/);
    expect(await within(waiting.stop("SIGINT"), 5_000)).toBe(130);
    await tap.close();
  });
});

describe("numeric flags are parsed as arguments: a bad one is a usage error naming the flag (exit 2)", () => {
  it.each([
    ["--port", ["serve", "--port", "abc", "--no-state-file"]],
    ["--otp-port", ["serve", "--otp-port", "12x", "--no-state-file"]],
    ["--limit", ["messages", "list", "--limit", "ten", "--base-url", "http://127.0.0.1:9"]],
    [
      "--count",
      ["simulate", "fault", "+14155550101", "transient", "--count", "-1", "--base-url", "http://127.0.0.1:9"],
    ],
  ])("%s", async (flag, args) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`option '${flag}`);
    expect(result.stderr).toContain("It must be a whole number");
    expect(result.stderr).not.toContain("crashed");
  });
});

describe("no sandbox to talk to is exit 1, like an unreachable one (README, Exit statuses)", () => {
  it("with no flag, variable or state file: 1 with a hint", async () => {
    const result = await runCli(["numbers"], { cwd: "/" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("No sandbox found");
  });

  it("with a sandbox URL where nothing listens: 1", async () => {
    const result = await runCli(["numbers", "--base-url", "http://127.0.0.1:9", "--api-key", "sk_test_x"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Cannot reach the sandbox");
  });
});
