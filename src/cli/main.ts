import { Chalk } from "chalk";
import { CommanderError } from "commander";
import { ApiError, ConnectionError } from "../client/http.js";
import { isAppError } from "../lib/app-error.js";
import { packageVersion } from "../runtime/version.js";
import { exitAfterFlush, exitQuietlyOnBrokenPipe } from "./exit.js";
import { SIGNAL_EXIT } from "./interrupt.js";
import { wantsColor } from "./output.js";
import { createProgram } from "./program.js";
import { UsageError } from "./usage-error.js";

/** Exit statuses (SANDBOX.md section 6). */
export const EXIT = { ok: 0, apiError: 1, usage: 2 } as const;

/** Maps anything a command threw to an exit status, printing it on stderr. */
export function reportError(error: unknown, stderr: (text: string) => void = (t) => process.stderr.write(t)): number {
  const c = new Chalk({ level: wantsColor(process.stderr) ? 1 : 0 });
  if (error instanceof CommanderError) {
    // Commander already printed its message (or the help / version text).
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  // Ctrl-C in a prompt (init, otp walkthrough): @inquirer/prompts rejects; the person chose to leave.
  if ((error as Error)?.name === "ExitPromptError") return SIGNAL_EXIT.SIGINT;
  if (error instanceof ApiError) {
    stderr(
      `${c.red("error")} ${c.bold(error.code)}: ${error.message}${error.requestId ? c.dim(` (request id ${error.requestId})`) : ""}\n`,
    );
    return EXIT.apiError;
  }
  if (error instanceof UsageError || isAppError(error)) {
    stderr(`${c.red("error")} ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  // An absent or unreachable sandbox is 1 like any failed API call: a script's `|| retry` covers both.
  if (
    error instanceof ConnectionError ||
    ["NoSandboxError", "WaitTimeout", "SignatureMismatch", "TriggerFailed"].includes((error as Error)?.name)
  ) {
    stderr(`${c.red("error")} ${(error as Error).message}\n`);
    return EXIT.apiError;
  }
  stderr(
    `${c.red("msgctl crashed")} — this is a bug, please report it with the trace below.\n${(error as Error)?.stack ?? String(error)}\n`,
  );
  return EXIT.apiError;
}

/** The CLI's entry: parses argv, runs one command, exits with its status once its output is out. */
export async function run(argv: string[]): Promise<void> {
  exitQuietlyOnBrokenPipe();
  const program = createProgram(packageVersion());
  let code: number = EXIT.ok;
  try {
    await program.parseAsync(argv);
  } catch (error) {
    code = reportError(error);
  }
  await exitAfterFlush(code);
}
