import { Chalk, type ChalkInstance } from "chalk";

/** Where a command writes, and how: JSON for scripts, coloured text for people. */
export interface Output {
  /** `--json`: stdout carries one JSON document (or one object per line for streams), nothing else. */
  readonly json: boolean;
  /** Colours for human output (no-ops when colour is off). */
  readonly color: ChalkInstance;
  /** True when stdout is a terminal (spinners, prompts). */
  readonly interactive: boolean;
  /** A line on stdout. */
  line(text?: string): void;
  /** Text on stdout exactly as given, no newline added (raw bodies, to be saved byte for byte). */
  write(text: string): void;
  /** A line on stderr (notes, warnings, errors). */
  note(text: string): void;
  /** Prints a result: as JSON with --json, else through `human`. */
  result<T>(data: T, human: (data: T) => string | string[] | void): void;
  /** One JSON object per line (streams with --json). */
  jsonLine(value: unknown): void;
}

/** Whether to colour a stream: NO_COLOR wins, FORCE_COLOR forces, else only on a TTY. */
export function wantsColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true;
}

/** Output to the process's stdout/stderr. */
export function processOutput(json: boolean): Output {
  return createOutput({
    json,
    color: wantsColor(process.stdout),
    interactive: process.stdout.isTTY === true && process.stdin.isTTY === true,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}

/** Output to given writers (tests capture it this way). */
export function createOutput(options: {
  json: boolean;
  color: boolean;
  interactive?: boolean;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}): Output {
  const color = new Chalk({ level: options.color ? 1 : 0 });
  return {
    json: options.json,
    color,
    interactive: options.interactive ?? false,
    line: (text = "") => options.stdout(`${text}\n`),
    write: (text) => options.stdout(text),
    note: (text) => options.stderr(`${text}\n`),
    result(data, human) {
      if (options.json) {
        options.stdout(`${JSON.stringify(data, null, 2)}\n`);
        return;
      }
      const text = human(data);
      if (text === undefined) return;
      for (const line of Array.isArray(text) ? text : [text]) options.stdout(`${line}\n`);
    },
    jsonLine: (value) => options.stdout(`${JSON.stringify(value)}\n`),
  };
}

/** Formats rows as an aligned text table with a dimmed header. */
export function table(
  color: ChalkInstance,
  headers: string[],
  rows: (string | number | null | undefined)[][],
): string[] {
  const cells = rows.map((row) => row.map((cell) => (cell == null ? "" : String(cell))));
  // Widths ignore ANSI escapes so coloured cells still line up.
  const visible = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, "").length;
  const widths = headers.map((header, i) => Math.max(header.length, ...cells.map((row) => visible(row[i] ?? ""))));
  const format = (row: string[]) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell + " ".repeat((widths[i] ?? 0) - visible(cell))))
      .join("  ")
      .trimEnd();
  if (cells.length === 0) return [color.dim("(none)")];
  return [color.dim(format(headers)), ...cells.map(format)];
}

/** Key/value lines for one resource. */
export function details(color: ChalkInstance, entries: [string, unknown][]): string[] {
  const width = Math.max(...entries.map(([key]) => key.length));
  return entries.map(([key, value]) => {
    const text =
      value === null || value === undefined
        ? color.dim("—")
        : typeof value === "object"
          ? JSON.stringify(value)
          : String(value);
    return `${color.dim(key.padEnd(width))}  ${text}`;
  });
}
