import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import { createProgram } from "../../src/cli/program.js";
import { reportError } from "../../src/cli/report-error.js";

/** Parses a command line the way `msgctl` does, keeping commander's own words; fails when it is accepted. */
export async function refusal(args: string[]): Promise<{ said: string; exit: number }> {
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
