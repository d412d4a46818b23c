import { CommanderError } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { reportError } from "../../src/cli/report-error.js";
import { UsageError } from "../../src/cli/usage-error.js";
import { WaitTimeout } from "../../src/cli/commands/wait.js";
import { ApiError, ConnectionError } from "../../src/client/http.js";
import { AppError } from "../../src/lib/app-error.js";

function report(error: unknown, json = false) {
  const out: string[] = [];
  const err: string[] = [];
  const code = reportError(error, { json, stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { code, text: err.join(""), stdout: out.join("") };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("exit statuses (README.md): 0 success, 1 API error, 2 usage error", () => {
  it("an API error: 1, with code, message and request id", () => {
    const { code, text } = report(new ApiError(409, "invalid_state", "React needs a delivered message", "req_abc"));
    expect(code).toBe(1);
    expect(text).toContain("invalid_state: React needs a delivered message (request id req_abc)");
  });

  it("a usage error: 2", () => {
    expect(report(new UsageError("--clock must be real or manual")).code).toBe(2);
    expect(report(new AppError("invalid_request", 400, "bad duration")).code).toBe(2);
    expect(report(new CommanderError(1, "commander.unknownCommand", "unknown command")).code).toBe(2);
  });

  it("a sandbox that cannot start for another process's sake: 1 with its own code", () => {
    for (const code of ["database_locked", "sandbox_running", "port_in_use", "invalid_fixture"] as const) {
      expect(report(new AppError(code, 409, "no"), true)).toMatchObject({
        code: 1,
        stdout: `${JSON.stringify({ error: code, message: "no" })}\n`,
      });
    }
  });

  it("Ctrl-C in a prompt (init, otp walkthrough): 130, like any wait ended by SIGINT, with no crash report", () => {
    const closed = Object.assign(new Error("User force closed the prompt with SIGINT"), { name: "ExitPromptError" });
    expect(report(closed)).toEqual({ code: 130, text: "", stdout: "" });
  });

  it("help and version: 0", () => {
    expect(report(new CommanderError(0, "commander.helpDisplayed", "(outputHelp)")).code).toBe(0);
  });

  it("no sandbox to talk to: 1 with a hint", () => {
    const { code, text } = report(new ConnectionError("http://127.0.0.1:4010", new Error("ECONNREFUSED")));
    expect(code).toBe(1);
    expect(text).toContain("Is `msgctl serve` running?");
  });

  it("a bug: said to be one, with no stack trace unless MSGCTL_DEBUG=1", () => {
    vi.stubEnv("MSGCTL_DEBUG", "");
    const { code, text } = report(new TypeError("x is undefined"));
    expect(code).toBe(1);
    expect(text).toContain("msgctl crashed, which is a bug: TypeError: x is undefined");
    expect(text).toContain("MSGCTL_DEBUG=1");
    expect(text).not.toMatch(/\n\s+at /);
    vi.stubEnv("MSGCTL_DEBUG", "1");
    expect(report(new TypeError("x is undefined")).text).toMatch(/TypeError: x is undefined\n\s+at /);
  });
});

describe("--json failures (docs/sandbox.md): one object on stdout, nothing on stderr", () => {
  it("an API refusal: error, message, request_id and status", () => {
    const result = report(new ApiError(409, "invalid_state", "React needs a delivered message", "req_abc"), true);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      error: "invalid_state",
      message: "React needs a delivered message",
      request_id: "req_abc",
      status: 409,
    });
    expect(result.text).toBe("");
  });

  it("a usage error, commander's included: error usage, exit 2", () => {
    expect(report(new UsageError("--clock must be real or manual"), true)).toEqual({
      code: 2,
      stdout: `${JSON.stringify({ error: "usage", message: "--clock must be real or manual" })}\n`,
      text: "",
    });
    const unknown = new CommanderError(1, "commander.unknownOption", "error: unknown option '--nope'");
    expect(JSON.parse(report(unknown, true).stdout)).toEqual({ error: "usage", message: "unknown option '--nope'" });
  });

  it("other failures: a code of their own, exit 1", () => {
    const unreachable = report(new ConnectionError("http://127.0.0.1:1", new Error("ECONNREFUSED")), true);
    expect(unreachable.code).toBe(1);
    expect(JSON.parse(unreachable.stdout)).toMatchObject({ error: "unreachable" });
    const timeout = report(new WaitTimeout("still queued", { id: "msg_1", status: "queued" }), true);
    expect(JSON.parse(timeout.stdout)).toEqual({
      error: "timeout",
      message: "still queued",
      last_seen: { id: "msg_1", status: "queued" },
    });
  });

  it("a bug: internal_error, and no stack anywhere without MSGCTL_DEBUG=1", () => {
    vi.stubEnv("MSGCTL_DEBUG", "");
    const crash = report(new TypeError("x is undefined"), true);
    expect(crash.code).toBe(1);
    expect(JSON.parse(crash.stdout)).toMatchObject({ error: "internal_error" });
    expect(crash.text).toBe("");
  });
});
