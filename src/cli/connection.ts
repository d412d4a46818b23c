import { createClient, type MsgctlClient } from "../client/client.js";
import type { HostName } from "../client/http.js";
import { nodeFetch } from "./node-fetch.js";
import { readStateFile, stateFilePath } from "./state-file.js";
import { UsageError } from "./usage-error.js";
import { DEFAULT_STATE_DIR } from "./defaults.js";

/** No sandbox to talk to (no flag, variable or state file): exit 1, like an unreachable one. */
export class NoSandboxError extends Error {
  override readonly name = "NoSandboxError";
}

/** The global flags every command that talks to a sandbox takes. */
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
  /** Absent only when the command needs the OTP host alone and nothing named the messaging host. */
  baseUrl?: string;
  otpUrl?: string;
  apiKey?: string;
  otpApiKey?: string;
  account?: string;
}

/** The state directory the flags (or MSGCTL_STATE_DIR, which commander reads into them) name. */
export const stateDirOf = (flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env) =>
  flags.stateDir ?? env.MSGCTL_STATE_DIR ?? DEFAULT_STATE_DIR;

/**
 * A host URL as given, or a usage error naming where it came from: `new URL` deep in the client
 * would otherwise fail with a bare "Invalid URL" crash.
 */
function checkedUrl(value: string | undefined, from: string): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  if (url?.protocol !== "http:" && url?.protocol !== "https:") {
    throw new UsageError(`${from} must be an http(s) URL such as http://127.0.0.1:4010 (got "${value}")`);
  }
  return value;
}

/**
 * Everything known about the sandbox, in one pass: flags, then MSGCTL_* variables, then
 * `<state-dir>/sandbox.json` of a running `msgctl serve`. Either URL may be missing; a URL that is
 * given must be one. `--account NAME` picks an account of the state file; the first is the default.
 */
export function findSandbox(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): Connection {
  const stateDir = stateDirOf(flags, env);
  const state = readStateFile(stateDir);
  const accountName = flags.account ?? env.MSGCTL_ACCOUNT;
  if (flags.account !== undefined && !state) {
    throw new UsageError(
      `--account ${flags.account} picks an account of a running sandbox's ${stateFilePath(stateDir)}, and there is none: pass --api-key and --otp-api-key instead`,
    );
  }
  const account = accountName ? state?.accounts.find((a) => a.name === accountName) : state?.accounts[0];
  const picked = flags.account !== undefined;
  if (accountName && state && !account) {
    // Keys are kept as hashes, so the sandbox cannot hand them out again: only this file knows them.
    throw new UsageError(
      `No account named "${accountName}" in ${stateFilePath(stateDir)} (accounts: ${state.accounts.map((a) => a.name).join(", ")}). ` +
        "Accounts made with `msgctl accounts create` against this sandbox are added there; for one made otherwise, whose keys were shown only once, " +
        "pass --api-key and --otp-api-key (or set MSGCTL_API_KEY and MSGCTL_OTP_API_KEY) instead of --account",
    );
  }
  // An empty value (`MSGCTL_BASE_URL= msgctl …`) counts as not given.
  const given = (...values: (string | undefined)[]) => values.find((value) => value !== undefined && value !== "");
  const baseUrl = given(flags.baseUrl, env.MSGCTL_BASE_URL);
  const otpUrl = given(flags.otpUrl, env.MSGCTL_OTP_URL);
  const fromState = `${stateFilePath(stateDir)}'s`;
  return {
    baseUrl:
      baseUrl !== undefined
        ? checkedUrl(baseUrl, "--base-url (or MSGCTL_BASE_URL)")
        : checkedUrl(state?.base_url, `${fromState} base_url`),
    otpUrl:
      otpUrl !== undefined
        ? checkedUrl(otpUrl, "--otp-url (or MSGCTL_OTP_URL)")
        : checkedUrl(state?.otp_url, `${fromState} otp_url`),
    // `--account` on the command line names keys as a flag does: it outranks MSGCTL_*_KEY
    // (exported by `msgctl env` for the first account, say), which would silently win otherwise.
    apiKey:
      flags.apiKey ?? (picked ? account?.api_key : undefined) ?? env.MSGCTL_API_KEY ?? account?.api_key ?? undefined,
    otpApiKey:
      flags.otpApiKey ??
      (picked ? account?.otp_api_key : undefined) ??
      env.MSGCTL_OTP_API_KEY ??
      account?.otp_api_key ??
      undefined,
    account: account?.name,
  };
}

/**
 * The connection of a command that talks to `host` (default: the messaging host), whose URL must
 * be known. OTP commands need only the OTP host's: they never call the messaging host.
 */
export function resolveConnection(
  flags: ConnectionFlags,
  env?: NodeJS.ProcessEnv,
  host?: "messaging",
): Connection & { baseUrl: string };
export function resolveConnection(
  flags: ConnectionFlags,
  env: NodeJS.ProcessEnv | undefined,
  host: HostName,
): Connection;
export function resolveConnection(
  flags: ConnectionFlags,
  env: NodeJS.ProcessEnv = process.env,
  host: HostName = "messaging",
): Connection {
  const connection = findSandbox(flags, env);
  if (host === "messaging" && !connection.baseUrl) {
    throw new NoSandboxError(
      "No sandbox found: start one with `msgctl serve`, or pass --base-url (or set MSGCTL_BASE_URL)",
    );
  }
  if (host === "otp" && !connection.otpUrl) {
    throw new NoSandboxError(
      "No sandbox's OTP host found: start one with `msgctl serve`, or pass --otp-url (or set MSGCTL_OTP_URL)",
    );
  }
  return connection;
}

/** A client for the resolved connection of a command that talks to `host`. */
export function connect(flags: ConnectionFlags, host: HostName = "messaging"): MsgctlClient {
  const connection = resolveConnection(flags, process.env, host);
  // Every route a command calls takes a key: without one the answer would be a puzzling 401.
  if (!(host === "otp" ? connection.otpApiKey : connection.apiKey)) {
    const [flag, variable] = host === "otp" ? ["--otp-api-key", "MSGCTL_OTP_API_KEY"] : ["--api-key", "MSGCTL_API_KEY"];
    const why = connection.account
      ? `: ${connection.account}'s keys were shown once, when the sandbox first seeded it (it keeps only their hashes, and this start did not generate them)`
      : "";
    throw new UsageError(
      `No ${host === "otp" ? "OTP" : "messaging"} API key known${why}. Pass ${flag} (or set ${variable})`,
    );
  }
  // Without a messaging URL the client refuses any call to that host ("No messaging URL configured").
  return createClient({ ...connection, baseUrl: connection.baseUrl ?? "", fetch: nodeFetch });
}
