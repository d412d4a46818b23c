/**
 * The CLI's defaults, each written once: the flags declare them (so `--help` shows them) and the
 * commands fall back to them when called without the flag (tests call them directly).
 */

/** Where `serve` writes sandbox.json and other commands look for it. */
export const DEFAULT_STATE_DIR = ".msgctl";

/** The database `serve` opens (not under `--state-dir`: a moved state file keeps its database). */
export const DEFAULT_DB = `${DEFAULT_STATE_DIR}/sandbox.db`;

/** The messaging host's and the OTP host's ports. */
export const DEFAULT_PORTS = { messaging: 4010, otp: 4011 } as const;

/** The interface `serve` listens on: loopback only. */
export const DEFAULT_HOST = "127.0.0.1";

/** `serve`'s clock: a sandbox people click around in should keep time by itself. */
export const DEFAULT_CLOCK = "real";

/** Which records `serve` logs: each request's outcome and event, not each webhook attempt. */
export const DEFAULT_LOG_LEVEL = "info";

/** How long a `wait` (and `send --wait`) blocks, in real time, before it gives up. */
export const DEFAULT_WAIT_TIMEOUT = "10s";

/** How long `settle` waits, in real time, for what is due to finish (the sandbox's own default too). */
export const DEFAULT_SETTLE_TIMEOUT = "10s";

/** The page size of lists that page (`messages list`, `webhooks deliveries`). */
export const DEFAULT_PAGE_SIZE = 50;

/** The file `init` writes. */
export const DEFAULT_FIXTURE_FILE = "msgctl.fixture.json";

/** The shell `env` writes for. */
export const DEFAULT_SHELL = "bash";

/** The host whose document `openapi` prints. */
export const DEFAULT_OPENAPI_HOST = "messaging";

/** How many pool numbers `accounts create` gives a new account. */
export const DEFAULT_ACCOUNT_NUMBERS = 1;

/** `webhooks verify`'s replay window, seconds (the spec's five minutes). */
export const DEFAULT_SIGNATURE_TOLERANCE_S = 300;

/** The chaos profile of `chaos on` and `serve --chaos SEED` without one: the gentler. */
export const DEFAULT_CHAOS_PROFILE = "mild";
