import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { env } from "../../src/cli/commands/env.js";
import { createOutput } from "../../src/cli/output.js";
import { writeStateFile, type StateFile } from "../../src/cli/state-file.js";
import { runCli } from "../helpers/cli.js";

const flags = {
  baseUrl: "http://127.0.0.1:4010",
  otpUrl: "http://127.0.0.1:4011",
  apiKey: "sk_test_a",
  otpApiKey: "otp_live_b",
  stateDir: "/nonexistent",
};

function run(shell: string | undefined, json = false) {
  const lines: string[] = [];
  const out = createOutput({ json, color: false, stdout: (t) => lines.push(t), stderr: () => {} });
  env({ ...flags, shell }, out);
  return lines.join("");
}

describe("msgctl env (README.md)", () => {
  it("prints bash exports by default", () => {
    expect(run(undefined)).toBe(
      "export MSGCTL_BASE_URL='http://127.0.0.1:4010'\nexport MSGCTL_OTP_URL='http://127.0.0.1:4011'\nexport MSGCTL_API_KEY='sk_test_a'\nexport MSGCTL_OTP_API_KEY='otp_live_b'\n",
    );
  });

  it("prints fish and powershell forms", () => {
    expect(run("fish")).toContain("set -gx MSGCTL_API_KEY 'sk_test_a'");
    expect(run("powershell")).toContain('$env:MSGCTL_API_KEY = "sk_test_a"');
  });

  it("prints the variables as one JSON object with --json", () => {
    expect(JSON.parse(run("bash", true))).toEqual({
      MSGCTL_BASE_URL: "http://127.0.0.1:4010",
      MSGCTL_OTP_URL: "http://127.0.0.1:4011",
      MSGCTL_API_KEY: "sk_test_a",
      MSGCTL_OTP_API_KEY: "otp_live_b",
    });
  });

  it("refuses an unknown shell as a usage error", () => {
    expect(() => run("tcsh")).toThrow(expect.objectContaining({ name: "UsageError" }));
  });

  it("says how to start a sandbox when none is found", () => {
    const out = createOutput({ json: false, color: false, stdout: () => {}, stderr: () => {} });
    expect(() => env({ stateDir: "/nonexistent" }, out)).toThrow(/start one with `msgctl serve`/);
  });
});

/** The pid of a process that has exited (a child that ran nothing, awaited). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((done) => child.once("exit", done));
  return child.pid as number;
}

/** A state directory holding a state file as `serve` writes it, with this pid. */
function stateDirWith(pid: number): string {
  const dir = mkdtempSync(join(tmpdir(), "msgctl-env-"));
  const state: StateFile = {
    pid,
    base_url: "http://127.0.0.1:4010",
    otp_url: "http://127.0.0.1:4011",
    inspector_url: "http://127.0.0.1:4010/",
    clock: "manual",
    db: ":memory:",
    started_at: new Date().toISOString(),
    accounts: [{ name: "Acme", api_key: "sk_test_a", otp_api_key: "otp_live_b", numbers: [] }],
  };
  writeStateFile(join(dir, ".msgctl"), state);
  return dir;
}

function envOf(stateDir: string, flags: { baseUrl?: string } = {}) {
  const lines: string[] = [];
  const out = createOutput({ json: false, color: false, stdout: (t) => lines.push(t), stderr: () => {} });
  env({ stateDir, ...flags }, out);
  return lines.join("");
}

describe("msgctl env with a state file whose `msgctl serve` is gone (killed or crashed)", () => {
  it("says the sandbox is not running, naming the file and pid, as a NoSandboxError (exit 1)", async () => {
    const pid = await deadPid();
    const stateDir = join(stateDirWith(pid), ".msgctl");
    expect(() => envOf(stateDir)).toThrow(
      expect.objectContaining({
        name: "NoSandboxError",
        message: expect.stringContaining(
          `${join(stateDir, "sandbox.json")} was written by \`msgctl serve\` (pid ${pid}), which is no longer running`,
        ),
      }),
    );
  });

  it("exits 1 from the real CLI with that message on stderr and nothing to eval on stdout", async () => {
    const pid = await deadPid();
    const result = await runCli(["env"], { cwd: stateDirWith(pid) });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^error No sandbox running: .*which is no longer running\. Start one with `msgctl serve`/,
    );
  });

  it("prints the variables while the serve process runs, or runs as another user (EPERM)", () => {
    expect(envOf(join(stateDirWith(process.pid), ".msgctl"))).toContain(
      "export MSGCTL_BASE_URL='http://127.0.0.1:4010'",
    );
    const kill = vi.spyOn(process, "kill").mockImplementation(() => {
      throw Object.assign(new Error("kill EPERM"), { code: "EPERM" });
    });
    try {
      expect(envOf(join(stateDirWith(1_234_567), ".msgctl"))).toContain("export MSGCTL_API_KEY='sk_test_a'");
    } finally {
      kill.mockRestore();
    }
  });

  it("leaves an address given as a flag alone: the state file is not what it prints", async () => {
    const stateDir = join(stateDirWith(await deadPid()), ".msgctl");
    expect(envOf(stateDir, { baseUrl: "http://127.0.0.1:5010" })).toContain(
      "export MSGCTL_BASE_URL='http://127.0.0.1:5010'",
    );
  });
});
