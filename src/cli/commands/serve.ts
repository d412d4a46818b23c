import { resolve } from "node:path";
import { isAppError } from "../../lib/app-error.js";
import type { ClockMode } from "../../lib/clock.js";
import { isLoopbackAddress, parseAllowedHosts, splitHostList } from "../../lib/host-names.js";
import type { Logger } from "../../runtime/logger.js";
import { launchSandbox, type Sandbox } from "../../runtime/launch-sandbox.js";
import { table, type Output } from "../output.js";
import { removeStateFile, writeStateFile } from "../state-file.js";
import { UsageError } from "../usage-error.js";

/** Flags of `msgctl serve` (SANDBOX.md section 1). */
export interface ServeOptions {
  port: number;
  otpPort: number;
  host: string;
  /** `--allowed-hosts H,H…`: names besides loopback and --host that the Host header may carry. */
  allowedHosts?: string;
  db: string;
  fixture?: string;
  clock: string;
  strictUrls?: boolean;
  stateDir: string;
  stateFile: boolean;
  quiet?: boolean;
  /** Stops the sandbox when aborted (tests); signals do it for the CLI. */
  signal?: AbortSignal;
}

function jsonLogger(out: Output): Logger {
  const log = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    out.jsonLine({ level, time: new Date().toISOString(), msg: message, ...fields });
  return { info: log("info"), warn: log("warn"), error: log("error") };
}

function humanLogger(out: Output): Logger {
  const fmt = (fields?: Record<string, unknown>) =>
    fields
      ? ` ${Object.entries(fields)
          .map(([k, v]) => `${out.color.dim(`${k}=`)}${typeof v === "string" ? v : JSON.stringify(v)}`)
          .join(" ")}`
      : "";
  return {
    info: (message, fields) =>
      out.line(`${out.color.dim(new Date().toISOString().slice(11, 23))} ${message}${fmt(fields)}`),
    warn: (message, fields) => out.note(`${out.color.yellow("warn")} ${message}${fmt(fields)}`),
    error: (message, fields) => out.note(`${out.color.red("error")} ${message}${fmt(fields)}`),
  };
}

function validate(options: ServeOptions): ClockMode {
  assertPortOrUsage("--port", options.port);
  assertPortOrUsage("--otp-port", options.otpPort);
  if (options.clock !== "real" && options.clock !== "manual")
    throw new UsageError(`--clock must be real or manual (got ${options.clock})`);
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

function banner(sandbox: Sandbox, out: Output, mode: ClockMode, stateFile: string | undefined): string[] {
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
  if (stateFile) lines.push("", `  ${c.dim(`Other msgctl commands in this directory use ${stateFile}.`)}`);
  lines.push(`  ${c.dim("Ctrl-C to stop.")}`, "");
  return lines;
}

/**
 * `msgctl serve`: both hosts in one process until SIGINT/SIGTERM (or `signal`), then a clean
 * stop: no new connections, the running tick finished, the database checkpointed and closed.
 */
export async function serve(options: ServeOptions, out: Output): Promise<void> {
  const mode = validate(options);
  const logger = options.quiet ? undefined : out.json ? jsonLogger(out) : humanLogger(out);
  let sandbox: Sandbox;
  let onReset = () => {};
  try {
    sandbox = await launchSandbox({
      db: options.db === ":memory:" ? ":memory:" : resolve(options.db),
      fixture: options.fixture,
      clock: mode,
      host: options.host,
      allowedHosts: splitHostList(options.allowedHosts ?? ""),
      port: options.port,
      otpPort: options.otpPort,
      settings: { strictUrls: options.strictUrls === true },
      logger,
      onReset: () => onReset(),
    });
  } catch (error) {
    // A bad fixture or a busy port is the caller's to fix: a usage error, nothing written.
    if (isAppError(error)) throw new UsageError(error.message);
    throw error;
  }

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
    for (const line of banner(sandbox, out, mode, stateFile)) out.line(line);
  }

  // On stderr whatever the flags (it is about who can reach the sandbox), and as a log record under --json.
  const exposure = exposureWarning(options.host, sandbox.listenAddress);
  if (exposure) {
    out.note(`${out.color.yellow("warn")} ${exposure}`);
    if (out.json) logger?.warn(exposure, { host: options.host, address: sandbox.listenAddress });
  }

  const unsubscribe = logger
    ? sandbox.bus.on("event", (event) => {
        const payload = event.payload as Record<string, unknown>;
        logger.info(event.type, {
          event_id: event.id,
          ...(payload.message_id ? { message_id: payload.message_id } : {}),
          ...(payload.conversation_id ? { conversation_id: payload.conversation_id } : {}),
        });
      })
    : () => {};

  await new Promise<void>((done) => {
    const stop = () => done();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    options.signal?.addEventListener("abort", stop, { once: true });
  });

  unsubscribe();
  await sandbox.stop();
  if (options.stateFile) removeStateFile(options.stateDir, process.pid);
  if (!options.quiet) {
    if (out.json) out.jsonLine({ event: "stopped" });
    else out.line(out.color.dim("Sandbox stopped."));
  }
}
