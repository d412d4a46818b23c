import { NoSandboxError, resolveConnection, stateDirOf, type ConnectionFlags } from "../connection.js";
import type { Output } from "../output.js";
import { readStateFile, stateFilePath, writerIsRunning } from "../state-file.js";
import { UsageError } from "../usage-error.js";
import { SHELLS } from "../choices.js";
import { DEFAULT_SHELL } from "../defaults.js";

/** Shells `msgctl env` can write for. */
export type Shell = (typeof SHELLS)[number];

const quote = (value: string) => `'${value.replace(/'/g, "'\\''")}'`;

/** The MSGCTL_* variables of the running sandbox. */
export interface SandboxEnv {
  MSGCTL_BASE_URL: string;
  MSGCTL_OTP_URL?: string;
  MSGCTL_API_KEY?: string;
  MSGCTL_OTP_API_KEY?: string;
}

/**
 * Refuses a state file whose `msgctl serve` is gone (killed, crashed: it had no chance to remove
 * the file). Other commands find that out when they connect; `env` connects to nothing, and would
 * hand a dead address to every later command of the shell that evals it.
 */
function refuseStoppedSandbox(options: ConnectionFlags): void {
  // An address given as a flag or variable is the caller's word; only the state file's is checked.
  if (options.baseUrl || process.env.MSGCTL_BASE_URL) return;
  const stateDir = stateDirOf(options);
  const state = readStateFile(stateDir);
  if (state && !writerIsRunning(state)) {
    throw new NoSandboxError(
      `No sandbox running: ${stateFilePath(stateDir)} was written by \`msgctl serve\` (pid ${state.pid}), which is no longer running. ` +
        "Start one with `msgctl serve`, or pass --base-url (or set MSGCTL_BASE_URL)",
    );
  }
}

/** `msgctl env [--shell bash|fish|powershell]`: the variables as shell exports (`eval "$(msgctl env)"`). */
export function env(options: ConnectionFlags & { shell?: string }, out: Output): SandboxEnv {
  const shell = (options.shell ?? DEFAULT_SHELL) as Shell;
  // Commander checks the flag; a caller in code may still pass anything.
  if (!SHELLS.includes(shell)) throw new UsageError(`--shell must be bash, fish or powershell (got ${shell})`);
  refuseStoppedSandbox(options);
  const connection = resolveConnection(options);
  const vars: SandboxEnv = { MSGCTL_BASE_URL: connection.baseUrl };
  if (connection.otpUrl) vars.MSGCTL_OTP_URL = connection.otpUrl;
  if (connection.apiKey) vars.MSGCTL_API_KEY = connection.apiKey;
  if (connection.otpApiKey) vars.MSGCTL_OTP_API_KEY = connection.otpApiKey;
  out.result(vars, (v) =>
    Object.entries(v).map(([name, value]) => {
      if (shell === "fish") return `set -gx ${name} ${quote(value)}`;
      if (shell === "powershell") return `$env:${name} = "${value.replace(/"/g, '`"')}"`;
      return `export ${name}=${quote(value)}`;
    }),
  );
  return vars;
}
