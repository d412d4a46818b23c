import type { ChalkInstance } from "chalk";
import type { Logger } from "../runtime/logger.js";
import { DEFAULT_LOG_LEVEL } from "./defaults.js";
import { fileSink, streamSink, type LogSink } from "./log-sink.js";
import { stopOnBrokenPipe } from "./exit.js";
import { UsageError } from "./usage-error.js";

/** `--log-level`: which records `serve` writes. */
export type LogLevel = "error" | "info" | "debug";

/** The levels `--log-level` takes, least said first. */
const LOG_LEVELS: readonly LogLevel[] = ["error", "info", "debug"];

/** How `serve` logs. */
export interface ServeLogOptions {
  /** JSON records (`--json`), or lines for people. */
  json: boolean;
  level: LogLevel;
  /** `--log-file`: records go there instead of stdout/stderr. */
  file?: string;
  /** Colours for lines on a terminal. */
  color: ChalkInstance;
}

/** `serve`'s logger, and a way to release the log file. */
export interface ServeLog {
  logger: Logger;
  close(): void;
  /**
   * From now on, records carry the sandbox clock's time: the time of a line for people (what
   * `listen`, `tail` and `get` show too), and `sandbox_time` beside the wall clock's `time` in JSON.
   */
  followClock(now: () => number): void;
}

type Level = "error" | "warn" | "info" | "debug";
// A record is written when its rank is at most the level's: warnings come with info.
const RANK: Record<Level, number> = { error: 0, warn: 1, info: 1, debug: 2 };

/** `--log-level`'s value, checked. */
export function logLevelOf(value: string | undefined): LogLevel {
  if (value === undefined) return DEFAULT_LOG_LEVEL;
  if (!(LOG_LEVELS as readonly string[]).includes(value)) {
    throw new UsageError(`--log-level must be ${LOG_LEVELS.join(", ")} (got ${value})`);
  }
  return value as LogLevel;
}

/**
 * Fields as written: an error is its message, with its stack only under MSGCTL_DEBUG=1 (a log
 * record is something the CLI prints, and nothing it prints is a stack trace otherwise).
 */
function plainFields(fields: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!fields) return {};
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value instanceof Error) {
      plain[key] = String(value);
      if (process.env.MSGCTL_DEBUG === "1" && value.stack) plain.stack = value.stack;
    } else plain[key] = value;
  }
  return plain;
}

/** A time of day to the millisecond, as lines for people show it. */
const timeOfDay = (ms: number) => new Date(ms).toISOString().slice(11, 23);

/**
 * Where records go and what they look like: one JSON object per line (`--json`), or lines for
 * people (info on stdout, warnings and errors on stderr); all of them to `--log-file` when given.
 * No sink ever makes the sandbox wait (log-sink.ts); when lines were dropped, the next one written
 * says how many: `{"level":"warn","time":…,"msg":"log records dropped","dropped":N}`.
 */
export function createServeLog(options: ServeLogOptions): ServeLog {
  const c = options.color;
  // Until the sandbox's clock exists (the start), the wall clock's time is all there is.
  let sandboxNow: (() => number) | undefined;
  // A record about something that happened at a sandbox time of its own (an event, an attempt)
  // gives it as `sandbox_time` (ms); others take the clock's now.
  const sandboxTimeOf = (fields: Record<string, unknown> | undefined) =>
    typeof fields?.sandbox_time === "number" ? fields.sandbox_time : sandboxNow?.();
  const jsonLine = (level: Level, message: string, fields?: Record<string, unknown>) => {
    const at = sandboxTimeOf(fields);
    const { sandbox_time: _given, ...rest } = plainFields(fields);
    const sandboxTime = at === undefined ? {} : { sandbox_time: new Date(at).toISOString() };
    return `${JSON.stringify({ level, time: new Date().toISOString(), ...sandboxTime, msg: message, ...rest })}\n`;
  };
  const humanLine = (level: Level, message: string, fields?: Record<string, unknown>) => {
    const { sandbox_time: _given, ...rest } = plainFields(fields);
    const extra = Object.entries(rest)
      .map(([k, v]) => ` ${c.dim(`${k}=`)}${typeof v === "string" ? v : JSON.stringify(v)}`)
      .join("");
    const tag = level === "error" ? `${c.red("error")} ` : level === "warn" ? `${c.yellow("warn")} ` : "";
    return `${c.dim(timeOfDay(sandboxTimeOf(fields) ?? Date.now()))} ${tag}${message}${extra}\n`;
  };
  const format = options.json ? jsonLine : humanLine;
  const dropped = (count: number) => format("warn", "log records dropped", { dropped: count });

  let sinks: { out: LogSink; problems: LogSink };
  if (options.file) {
    const file = fileSink(options.file, dropped);
    sinks = { out: file, problems: file };
  } else {
    const out = streamSink(process.stdout, dropped);
    sinks = { out, problems: options.json ? out : streamSink(process.stderr, dropped) };
    // A reader that closes the pipe (it read the ready line and wants nothing more) only ends the
    // logs there: the sandbox goes on serving, as it does for a reader that stopped reading.
    stopOnBrokenPipe(() => {});
  }

  const at = (level: Level) => (message: string, fields?: Record<string, unknown>) => {
    if (RANK[level] > RANK[options.level]) return;
    const sink = level === "error" || level === "warn" ? sinks.problems : sinks.out;
    sink.write(format(level, message, fields));
  };
  return {
    logger: { error: at("error"), warn: at("warn"), info: at("info"), debug: at("debug") },
    close: () => sinks.out.close(),
    followClock: (now) => void (sandboxNow = now),
  };
}
