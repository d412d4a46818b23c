import { join, resolve } from "node:path";
import { Chalk } from "chalk";
import { AppError, isAppError } from "../../lib/app-error.js";
import type { ClockMode } from "../../lib/clock.js";
import { isLoopbackAddress, parseAllowedHosts, splitHostList } from "../../lib/host-names.js";
import { loadFixtureFile } from "../../runtime/fixture-source.js";
import type { Logger } from "../../runtime/logger.js";
import { launchSandbox, type Sandbox } from "../../runtime/launch-sandbox.js";
import { parseChaosFlag } from "../chaos-seed.js";
import { limitExitWait } from "../exit.js";
import { portInUse, refuseRunningSandbox } from "./serve-conflicts.js";
import { LAST_LINES_MS, STOP_GRACE_MS, stopRequest, type StopRequest } from "./serve-stop.js";
import { table, type Output } from "../output.js";
import { createServeLog, logLevelOf } from "../serve-log.js";
import { removeStateFile, writeStateFile } from "../state-file.js";
import { UsageError } from "../usage-error.js";

/** Flags of `msgctl serve`. */
export interface ServeOptions {
  port: number;
  otpPort: number;
  host: string;
  /** `--allowed-hosts H,H…`: names besides loopback and --host that the Host header may carry. */
  allowedHosts?: string;
  db: string;
  fixture?: string;
  /** `--restore FILE`: start from an exported snapshot (a --fixture given with it is ignored). */
  restore?: string;
  clock: ClockMode;
  strictUrls?: boolean;
  /** `--chaos SEED[:PROFILE]`: seeded chaos from the start. */
  chaos?: string;
  stateDir: string;
  stateFile: boolean;
  quiet?: boolean;
  /** `--log-file PATH`: log records go there instead of stdout. */
  logFile?: string;
  /** `--log-level error|info|debug` (default info). */
  logLevel?: string;
  /** Stops the sandbox when aborted (tests); signals do it for the CLI. */
  signal?: AbortSignal;
}

function validate(options: ServeOptions): ClockMode {
  assertPortOrUsage("--port", options.port);
  assertPortOrUsage("--otp-port", options.otpPort);
  if (options.chaos !== undefined) parseChaosFlag(options.chaos);
  try {
    parseAllowedHosts(splitHostList(options.allowedHosts ?? ""), "--allowed-hosts");
  } catch (error) {
    if (isAppError(error)) throw new UsageError(error.message);
    throw error;
  }
  return options.clock;
}

/** What to say when the hosts listen where the network can reach them (not a loopback address). */
function exposureWarning(host: string, address: string | undefined): string | undefined {
  if (address === undefined || isLoopbackAddress(address)) return undefined;
  return (
    `--host ${host} is not a loopback address: the messaging and OTP APIs, the control API and the inspector ` +
    "are reachable from that network, by anyone there who has a key (the default fixture's keys are public). " +
    "Requests must name the sandbox by an allowed host: add the names clients use with --allowed-hosts."
  );
}

function assertPortOrUsage(name: string, port: number) {
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new UsageError(`${name} must be a port number from 0 to 65535 (got ${port})`);
  }
}

function banner(
  sandbox: Sandbox,
  out: Output,
  mode: ClockMode,
  stateFile: string | undefined,
  logsBelow: boolean,
): string[] {
  const c = out.color;
  const lines = [
    "",
    `  ${c.bold("msgctl")} sandbox ready ${c.dim(`(clock: ${mode})`)}`,
    "",
    `  ${c.dim("Messaging API")}  ${c.cyan(sandbox.baseUrl)}`,
    `  ${c.dim("OTP API      ")}  ${c.cyan(sandbox.otpUrl)}`,
    `  ${c.dim("Inspector    ")}  ${c.cyan(sandbox.inspectorUrl)}`,
    "",
    ...table(
      c,
      ["ACCOUNT", "API KEY", "OTP KEY", "NUMBERS"],
      sandbox.accounts.map((a) => [
        a.name,
        a.api_key ?? c.dim("(shown at first start)"),
        a.otp_api_key ?? c.dim("(shown at first start)"),
        a.numbers.map((n) => n.handle).join(", "),
      ]),
    ).map((line) => `  ${line}`),
  ];
  if (sandbox.generatedKeys.length > 0) lines.push("", `  ${c.yellow("Generated keys are shown once: keep them.")}`);
  const chaos = sandbox.chaos();
  if (chaos.enabled) {
    lines.push(
      "",
      `  ${c.yellow("Chaos is on")}: seed ${JSON.stringify(chaos.seed)}, profile ${chaos.profile} (msgctl chaos status)`,
    );
  }
  if (stateFile) lines.push("", `  ${c.dim(`Other msgctl commands in this directory use ${stateFile}.`)}`);
  // The times of the log lines below are not the wall clock's once a clock was advanced: say whose.
  if (logsBelow)
    lines.push(`  ${c.dim(`Log times below are the sandbox clock's (${mode}), as listen, tail and get show them.`)}`);
  lines.push(`  ${c.dim("Ctrl-C to stop.")}`, "");
  return lines;
}

/** Logs each committed event (info) and each webhook attempt (debug) of the sandbox. */
function logActivity(sandbox: Sandbox, logger: Logger): () => void {
  const offEvents = sandbox.bus.on("event", (event) => {
    const payload = event.payload as Record<string, unknown>;
    logger.info(event.type, {
      sandbox_time: event.createdAt,
      event_id: event.id,
      ...(payload.message_id ? { message_id: payload.message_id } : {}),
      ...(payload.conversation_id ? { conversation_id: payload.conversation_id } : {}),
    });
  });
  const offDeliveries = sandbox.bus.on("delivery", ({ delivery }) => {
    const attempt = delivery.attempts.at(-1);
    logger.debug?.("webhook attempt", {
      ...(attempt ? { sandbox_time: Date.parse(attempt.at) } : {}),
      delivery_id: delivery.id,
      webhook_id: delivery.webhook_id,
      event_type: delivery.event_type,
      attempt: attempt?.n,
      status_code: attempt?.status_code ?? null,
      ...(attempt?.error ? { error: attempt.error } : {}),
      duration_ms: attempt?.duration_ms,
      status: delivery.status,
    });
  });
  return () => {
    offEvents();
    offDeliveries();
  };
}

/**
 * `msgctl serve`: both hosts in one process until SIGINT/SIGTERM (or `signal`), then a clean
 * stop within 2 s: no new connections, the running tick finished, the database closed, the
 * state file removed, exit 0. A signal before the ready line stops the start as cleanly.
 */
export async function serve(options: ServeOptions, out: Output): Promise<void> {
  // --- Signals first: from here on, any instant ---
  const stop = stopRequest(options.signal);
  try {
    await serveUntilStopped(options, out, stop);
  } finally {
    stop.release();
  }
}

async function serveUntilStopped(options: ServeOptions, out: Output, stop: StopRequest): Promise<void> {
  // --- Check everything before anything is written ---
  const mode = validate(options);
  const level = logLevelOf(options.logLevel);
  if (options.stateFile) await refuseRunningSandbox(options.stateDir);
  // A snapshot to start from replaces whatever the fixture would seed: the fixture is not read.
  const fixture = options.restore === undefined ? options.fixture : undefined;
  if (options.restore !== undefined && options.fixture !== undefined) {
    out.note(`note: --fixture ${options.fixture} is ignored: the sandbox starts from the snapshot ${options.restore}`);
  }
  // The fixture is validated here too, so that its errors are told apart: `invalid_fixture`.
  if (fixture !== undefined) {
    try {
      loadFixtureFile(fixture);
    } catch (error) {
      if (isAppError(error)) throw new AppError("invalid_fixture", 400, error.message);
      throw error;
    }
  }
  if (stop.requested) return;
  const log =
    options.quiet && !options.logFile
      ? undefined
      : createServeLog({
          json: out.json,
          level,
          file: options.logFile,
          color: options.logFile ? new Chalk({ level: 0 }) : out.color,
        });

  // --- Start ---
  let onReset = () => {};
  let sandbox: Sandbox;
  try {
    sandbox = await launchSandbox({
      db: options.db === ":memory:" ? ":memory:" : resolve(options.db),
      fixture,
      restore: options.restore,
      // Beside the state file; with --no-state-file, `snapshots/` beside the database file.
      snapshots: options.stateFile ? join(resolve(options.stateDir), "snapshots") : undefined,
      clock: mode,
      host: options.host,
      allowedHosts: splitHostList(options.allowedHosts ?? ""),
      port: options.port,
      otpPort: options.otpPort,
      // Written to the database's settings: a later start without the flag keeps it (settings set strict_urls false).
      settings: options.strictUrls ? { strictUrls: true } : undefined,
      chaos: options.chaos === undefined ? undefined : parseChaosFlag(options.chaos),
      logger: log?.logger,
      onReset: () => onReset(),
    });
  } catch (error) {
    log?.close();
    if (!isAppError(error)) throw error;
    if (error.code === "port_in_use") throw await portInUse(error, options);
    // database_locked and the like keep their code; a bad --db or --host is the caller's to fix.
    if (error.code === "invalid_request") throw new UsageError(error.message);
    throw error;
  }
  // A signal during the start: stop at once, with no ready line and no state file.
  if (stop.requested) {
    await sandbox.stop(STOP_GRACE_MS);
    log?.close();
    return;
  }

  // --- Ready ---
  const writeState = () =>
    options.stateFile
      ? writeStateFile(options.stateDir, {
          pid: process.pid,
          base_url: sandbox.baseUrl,
          otp_url: sandbox.otpUrl,
          inspector_url: sandbox.inspectorUrl,
          clock: mode,
          db: options.db,
          started_at: new Date().toISOString(),
          accounts: sandbox.accounts,
        })
      : undefined;
  const stateFile = writeState();
  onReset = writeState;
  // However the process ends from here (a forced exit at the deadline, a crash), the file goes.
  const removeState = () => {
    if (options.stateFile) removeStateFile(options.stateDir, process.pid);
  };
  process.on("exit", removeState);

  if (out.json) {
    out.jsonLine({
      event: "ready",
      base_url: sandbox.baseUrl,
      otp_url: sandbox.otpUrl,
      inspector_url: sandbox.inspectorUrl,
      accounts: sandbox.accounts.map(({ name, api_key, otp_api_key, numbers }) => ({
        name,
        api_key,
        otp_api_key,
        numbers,
      })),
    });
  } else {
    for (const line of banner(sandbox, out, mode, stateFile, log !== undefined && !options.logFile)) out.line(line);
  }

  // On stderr whatever the flags (it is about who can reach the sandbox), and as a log record under --json.
  const exposure = exposureWarning(options.host, sandbox.listenAddress);
  if (exposure) {
    out.note(`${out.color.yellow("warn")} ${exposure}`);
    if (out.json) log?.logger.warn(exposure, { host: options.host, address: sandbox.listenAddress });
  }
  const chaos = sandbox.chaos();
  if (out.json && chaos.enabled) log?.logger.info("chaos on", { seed: chaos.seed, profile: chaos.profile });
  // Times in the log are the sandbox clock's from here on, like those of listen, tail and get.
  log?.followClock(() => sandbox.ctx.clock.now());
  const stopLogging = log ? logActivity(sandbox, log.logger) : () => {};

  // --- Run until asked to stop, then stop ---
  await stop.stopped;
  stopLogging();
  await sandbox.stop(STOP_GRACE_MS);
  removeState();
  process.off("exit", removeState);
  log?.logger.info("sandbox stopped");
  log?.close();
  limitExitWait(performance.now() + LAST_LINES_MS);
}
