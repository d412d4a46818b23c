import { describe, expect, it } from "vitest";
import { env } from "../../src/cli/commands/env.js";
import { createOutput } from "../../src/cli/output.js";

const flags = { baseUrl: "http://127.0.0.1:4010", otpUrl: "http://127.0.0.1:4011", apiKey: "sk_test_a", otpApiKey: "otp_live_b", stateDir: "/nonexistent" };

function run(shell: string | undefined, json = false) {
  const lines: string[] = [];
  const out = createOutput({ json, color: false, stdout: (t) => lines.push(t), stderr: () => {} });
  env({ ...flags, shell }, out);
  return lines.join("");
}

describe("msgctl env (SANDBOX.md section 6)", () => {
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
