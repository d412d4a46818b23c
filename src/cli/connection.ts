import { createClient, type MsgctlClient } from "../client/client.js";
import { readStateFile } from "./state-file.js";
import { UsageError } from "./usage-error.js";

/** No sandbox to talk to (no flag, variable or state file): exit 1, like an unreachable one. */
export class NoSandboxError extends Error {
  override readonly name = "NoSandboxError";
}

/** The global flags every command that talks to a sandbox takes (SANDBOX.md section 6). */
export interface ConnectionFlags {
  baseUrl?: string;
  otpUrl?: string;
  apiKey?: string;
  otpApiKey?: string;
  account?: string;
  stateDir?: string;
}

/** Where the sandbox is and which keys to use, resolved. */
export interface Connection {
  baseUrl: string;
  otpUrl?: string;
  apiKey?: string;
  otpApiKey?: string;
  account?: string;
}

/**
 * Resolves the connection in one pass: flags, then MSGCTL_* variables, then
 * `<state-dir>/sandbox.json` of a running `msgctl serve`. `--account NAME` picks an account of
 * the state file; the first one is the default.
 */
export function resolveConnection(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): Connection {
  const state = readStateFile(flags.stateDir ?? env.MSGCTL_STATE_DIR ?? ".msgctl");
  const accountName = flags.account ?? env.MSGCTL_ACCOUNT;
  const account = accountName ? state?.accounts.find((a) => a.name === accountName) : state?.accounts[0];
  if (accountName && state && !account) {
    throw new UsageError(`No account named "${accountName}" in the running sandbox (accounts: ${state.accounts.map((a) => a.name).join(", ")})`);
  }
  const baseUrl = flags.baseUrl ?? env.MSGCTL_BASE_URL ?? state?.base_url;
  if (!baseUrl) {
    throw new NoSandboxError("No sandbox found: start one with `msgctl serve`, or pass --base-url (or set MSGCTL_BASE_URL)");
  }
  return {
    baseUrl,
    otpUrl: flags.otpUrl ?? env.MSGCTL_OTP_URL ?? state?.otp_url,
    apiKey: flags.apiKey ?? env.MSGCTL_API_KEY ?? account?.api_key ?? undefined,
    otpApiKey: flags.otpApiKey ?? env.MSGCTL_OTP_API_KEY ?? account?.otp_api_key ?? undefined,
    account: account?.name,
  };
}

/** A client for the resolved connection. */
export function connect(flags: ConnectionFlags): MsgctlClient {
  return createClient(resolveConnection(flags));
}
