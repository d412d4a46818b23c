import { CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { reportError } from "../../src/cli/main.js";
import { UsageError } from "../../src/cli/usage-error.js";
import { ApiError, ConnectionError } from "../../src/client/http.js";
import { AppError } from "../../src/lib/app-error.js";

function report(error: unknown) {
  const lines: string[] = [];
  const code = reportError(error, (text) => lines.push(text));
  return { code, text: lines.join("") };
}

describe("exit statuses (SANDBOX.md section 6): 0 success, 1 API error, 2 usage error", () => {
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

  it("Ctrl-C in a prompt (init, otp walkthrough): 130, like any wait ended by SIGINT, with no crash report", () => {
    const closed = Object.assign(new Error("User force closed the prompt with SIGINT"), { name: "ExitPromptError" });
    expect(report(closed)).toEqual({ code: 130, text: "" });
  });

  it("help and version: 0", () => {
    expect(report(new CommanderError(0, "commander.helpDisplayed", "(outputHelp)")).code).toBe(0);
  });

  it("no sandbox to talk to: 1 with a hint", () => {
    const { code, text } = report(new ConnectionError("http://127.0.0.1:4010", new Error("ECONNREFUSED")));
    expect(code).toBe(1);
    expect(text).toContain("Is `msgctl serve` running?");
  });

  it("a bug: a stack trace and a request to report it", () => {
    const { text } = report(new TypeError("x is undefined"));
    expect(text).toContain("this is a bug, please report it");
    expect(text).toContain("TypeError: x is undefined");
  });
});
