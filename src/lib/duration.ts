import { invalidRequest as invalid } from "./app-error.js";
import { INPUT_LIMITS } from "./bounded-input.js";

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;

/**
 * Parses the CLI's duration grammar (`500ms`, `90s`, `10m`, `24h`, `1h30m`, `2d`) into milliseconds.
 * A bare number is milliseconds. Throws invalid_request on anything else, its message starting
 * with `field: ` when the duration came in a request body's field.
 */
export function parseDuration(input: string, field?: string): number {
  const invalidRequest = (message: string) => invalid(field ? `${field}: ${message}` : message);
  if (input.length > INPUT_LIMITS.duration)
    throw invalidRequest(
      `A duration is at most ${INPUT_LIMITS.duration} characters (forms like 500ms, 90s, 10m, 24h or 1h30m)`,
    );
  const text = input.trim();
  if (/^\d+$/.test(text)) return Number(text);
  let total = 0;
  let consumed = 0;
  PART.lastIndex = 0;
  for (let match = PART.exec(text); match; match = PART.exec(text)) {
    total += Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
    consumed = PART.lastIndex;
  }
  if (text === "" || consumed !== text.length) {
    throw invalidRequest(`"${input}" is not a duration: use forms like 500ms, 90s, 10m, 24h or 1h30m`);
  }
  return Math.round(total);
}

/** Formats milliseconds the way parseDuration reads them (`1h30m`, `5s`, `250ms`). */
export function formatDuration(ms: number): string {
  if (ms === 0) return "0s";
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1_000],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  if (rest > 0) parts.push(`${rest}ms`);
  return parts.join("");
}
