import { resolveConnection, type ConnectionFlags } from "../connection.js";
import type { Output } from "../output.js";
import { UsageError } from "../usage-error.js";

/** Shells `msgctl env` can write for. */
export type Shell = "bash" | "fish" | "powershell";

const quote = (value: string) => `'${value.replace(/'/g, "'\\''")}'`;

/** The MSGCTL_* variables of the running sandbox. */
export interface SandboxEnv {
  MSGCTL_BASE_URL: string;
  MSGCTL_OTP_URL?: string;
  MSGCTL_API_KEY?: string;
  MSGCTL_OTP_API_KEY?: string;
}

/** `msgctl env [--shell bash|fish|powershell]`: the variables as shell exports (`eval "$(msgctl env)"`). */
export function env(options: ConnectionFlags & { shell?: string }, out: Output): SandboxEnv {
  const shell = (options.shell ?? "bash") as Shell;
  if (!["bash", "fish", "powershell"].includes(shell)) throw new UsageError(`--shell must be bash, fish or powershell (got ${shell})`);
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
