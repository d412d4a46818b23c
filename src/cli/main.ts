import type { CommandUnknownOpts as Command } from "@commander-js/extra-typings";
import { versionLine } from "../runtime/version.js";
import { exitAfterFlush, exitQuietlyOnBrokenPipe } from "./exit.js";
import { createProgram } from "./program.js";
import { EXIT, reportError } from "./report-error.js";
import { releaseSignals } from "./signals.js";

export { EXIT, reportError } from "./report-error.js";

/**
 * Whether `--json` is among the flags, read before commander parses them: a command line
 * commander refuses still gets its error as JSON. Nothing after `--` is a flag.
 */
function wantsJson(argv: string[]): boolean {
  const args = argv.slice(2);
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).includes("--json");
}

/** Under --json, commander says nothing itself: its errors are reported as JSON on stdout instead. */
function silenceCommander(command: Command): void {
  command.configureOutput({ writeErr: () => {}, outputError: () => {} });
  for (const sub of command.commands) silenceCommander(sub);
}

/** The CLI's entry: parses argv, runs one command, exits with its status once its output is out. */
export async function run(argv: string[]): Promise<void> {
  exitQuietlyOnBrokenPipe();
  const json = wantsJson(argv);
  // A bug that escapes every command (a listener that throws) is reported like any failure.
  const crash = (error: unknown) => process.exit(reportError(error, { json }));
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
  const program = createProgram(versionLine());
  if (json) silenceCommander(program);
  // `serve` takes SIGINT and SIGTERM over from the entry script (commands/serve.ts); every other
  // command leaves them their default action.
  program.hook("preAction", (_, command) => {
    if (command.name() !== "serve" || command.parent !== program) releaseSignals();
  });
  let code: number = EXIT.ok;
  try {
    await program.parseAsync(argv);
  } catch (error) {
    code = reportError(error, { json });
  }
  releaseSignals();
  await exitAfterFlush(code);
}
