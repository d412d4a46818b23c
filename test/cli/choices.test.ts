import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import { describe, expect, it } from "vitest";
import { createProgram } from "../../src/cli/program.js";
import { reportError } from "../../src/cli/report-error.js";

/** Parses a command line the way `msgctl` does, keeping commander's own words. */
async function refusal(args: string[]): Promise<{ said: string; exit: number }> {
  let said = "";
  const program = createProgram("0.0.0");
  const quiet = (command: CommandUnknownOpts) => {
    command.configureOutput({ writeErr: (text) => void (said += text), writeOut: () => {} });
    for (const sub of command.commands) quiet(sub);
  };
  quiet(program);
  try {
    await program.parseAsync(["node", "msgctl", ...args]);
  } catch (error) {
    return { said, exit: reportError(error, { stderr: () => {} }) };
  }
  throw new Error(`msgctl ${args.join(" ")} was accepted`);
}

describe("an enumerated flag or argument refuses a value outside its list: exit 2, naming it and the values", () => {
  it.each([
    [["serve", "--clock", "sometimes"], "'--clock <mode>'", "real, manual"],
    [["env", "--shell", "zsh"], "'--shell <shell>'", "bash, fish, powershell"],
    [["openapi", "--host", "foo"], "'--host <host>'", "messaging, otp"],
    [["contacts", "set", "+14155550100", "--platform", "win"], "'--platform <platform>'", "ios, android"],
    [["wait", "otp", "c1", "--status", "done"], "'--status <status>'", "pending, verified, consumed, expired"],
    [
      ["simulate", "fault", "+14155550101", "melted"],
      "argument 'fault'",
      "offline, online, transient, rate-limited, relink-required",
    ],
    [["simulate", "otp-fault", "down"], "argument 'fault'", "unavailable"],
  ])("msgctl %j", async (args, names, values) => {
    const { said, exit } = await refusal(args);
    expect(exit).toBe(2);
    expect(said).toContain(names);
    expect(said).toContain(`Allowed choices are ${values}.`);
  });
});
