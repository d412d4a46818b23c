import { Chalk } from "chalk";
import { CommanderError } from "commander";
import { ApiError, ConnectionError } from "../client/http.js";
import { isAppError } from "../lib/app-error.js";
import { SIGNAL_EXIT } from "./interrupt.js";
import { wantsColor } from "./output.js";
import { QuietExit } from "./quiet-exit.js";
import { UsageError } from "./usage-error.js";

/** Exit statuses. */
export const EXIT = { ok: 0, apiError: 1, usage: 2 } as const;

/** What a failure prints and how the process exits. */
interface Failure {
  exit: number;
  /** The `error` of the JSON object. */
  code: string;
  message: string;
  /** Fields beside `error` and `message` in the JSON object. */
  fields?: Record<string, unknown>;
  /** The line for people, when it is not `error MESSAGE`; null when nothing is to be said. */
  human?: string | null;
}

// Errors of msgctl's own that are neither the API's nor the caller's: exit 1 with their code.
const OWN_ERRORS: Record<string, string> = {
  ConnectionError: "unreachable",
  NoSandboxError: "no_sandbox",
  WaitTimeout: "timeout",
  SignatureMismatch: "signature_mismatch",
  CheckFailed: "check_failed",
  TriggerFailed: "trigger_failed",
  InvalidScenario: "invalid_scenario",
};
// AppErrors about starting a sandbox keep their code; any other AppError reaching the CLI is
// its input refused by a shared rule (a bad duration, a bad phone number): a usage error.
const OWN_APP_ERRORS = new Set([
  "database_locked",
  "sandbox_running",
  "port_in_use",
  "invalid_fixture",
  "invalid_snapshot",
]);

/** Commander's message without its own "error: " in front. */
const commanderMessage = (error: CommanderError) =>
  error.code === "commander.help"
    ? "a command is needed: `msgctl --help` lists them"
    : error.message.replace(/^error: /, "");

/** Classifies anything a command threw; undefined when it is no failure (help, version). */
function failureOf(error: unknown, c: InstanceType<typeof Chalk>): Failure | undefined {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return undefined;
    // Commander printed its message itself (not under --json: see run()).
    return { exit: EXIT.usage, code: "usage", message: commanderMessage(error), human: null };
  }
  // Ctrl-C in a prompt (init, otp walkthrough): @inquirer/prompts rejects; the person chose to leave.
  if ((error as Error)?.name === "ExitPromptError") {
    return { exit: SIGNAL_EXIT.SIGINT, code: "interrupted", message: "interrupted", human: null };
  }
  if (error instanceof ApiError) {
    return {
      exit: EXIT.apiError,
      code: error.code,
      message: error.message,
      fields: { request_id: error.requestId, status: error.status },
      human: `${c.red("error")} ${c.bold(error.code)}: ${error.message}${error.requestId ? c.dim(` (request id ${error.requestId})`) : ""}`,
    };
  }
  if (isAppError(error) && OWN_APP_ERRORS.has(error.code)) {
    return { exit: EXIT.apiError, code: error.code, message: error.message };
  }
  if (error instanceof UsageError || isAppError(error)) {
    return { exit: EXIT.usage, code: "usage", message: (error as Error).message };
  }
  const own = OWN_ERRORS[(error as Error)?.name];
  // An absent or unreachable sandbox is 1 like any failed API call: a script's `|| retry` covers both.
  if (error instanceof ConnectionError || own) {
    return { exit: EXIT.apiError, code: own ?? "unreachable", message: (error as Error).message };
  }
  const debug = process.env.MSGCTL_DEBUG === "1";
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    exit: EXIT.apiError,
    code: "internal_error",
    message: `msgctl crashed, which is a bug: ${what}`,
    human:
      `${c.red("msgctl crashed")}, which is a bug: ${what}\n` +
      (debug
        ? `${(error as Error)?.stack ?? what}\nPlease report it with the trace above.`
        : "Run it again with MSGCTL_DEBUG=1 to see the trace, and please report it."),
  };
}

/** Where `reportError` writes. */
export interface ReportOptions {
  /** `--json`: one JSON object on stdout, nothing on stderr. */
  json?: boolean;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
}

/**
 * Maps anything a command threw to an exit status and reports it: for people, one line on
 * stderr; under `--json`, one object on stdout and nothing else there: `{ error, message,
 * request_id, status }` for an API refusal, `{ error: "usage", message }` for a usage error,
 * `{ error, message }` with a code of its own otherwise. A stack trace only with MSGCTL_DEBUG=1.
 */
export function reportError(error: unknown, options: ReportOptions = {}): number {
  const stdout = options.stdout ?? ((text) => process.stdout.write(text));
  const stderr = options.stderr ?? ((text) => process.stderr.write(text));
  // The command said everything itself (its report); only the status is left.
  if (error instanceof QuietExit) return error.exit;
  const c = new Chalk({ level: wantsColor(process.stderr) ? 1 : 0 });
  const failure = failureOf(error, c);
  if (!failure) return EXIT.ok;
  if (failure.exit === SIGNAL_EXIT.SIGINT) return failure.exit;
  if (options.json) {
    // What a failed command had made or seen (the message of `send --wait`, the diagnosis of
    // `webhooks verify`, the report of `webhooks check`) comes with the error, in the same object.
    const { lastSeen, details } = (error ?? {}) as { lastSeen?: unknown; details?: Record<string, unknown> };
    const fields: Record<string, unknown> = {
      ...details,
      ...failure.fields,
      ...(lastSeen === undefined ? {} : { last_seen: lastSeen }),
    };
    const { error: _code, message: _message, ...extra } = fields;
    stdout(`${JSON.stringify({ error: failure.code, message: failure.message, ...extra })}\n`);
    // The trace is for people; under --json it goes to stderr, only when asked for.
    if (failure.code === "internal_error" && process.env.MSGCTL_DEBUG === "1") {
      stderr(`${(error as Error)?.stack ?? String(error)}\n`);
    }
  } else if (failure.human !== null) {
    stderr(`${failure.human ?? `${c.red("error")} ${failure.message}`}\n`);
  }
  return failure.exit;
}
