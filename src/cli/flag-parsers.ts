import { InvalidArgumentError } from "commander";

/**
 * A whole-number flag value (`--port`, `--limit`, `--count`). Anything else is commander's
 * invalid-argument error, which names the flag and exits 2 like every usage error.
 */
export function wholeNumber(value: string): number {
  // Fifteen digits keep it a safe integer; ranges are checked where the value is used.
  if (!/^\d{1,15}$/.test(value)) throw new InvalidArgumentError("It must be a whole number.");
  return Number(value);
}

/** A number of seconds above 0 (`simulate inbound --duration 2.5`). */
export function positiveSeconds(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0)
    throw new InvalidArgumentError("must be a number of seconds above 0");
  return Number(value);
}

/**
 * A duration typed at the command line (`clock advance 90s`, `--timeout 10s`): a number needs its
 * unit, as Go's durations do (`0` alone may go without). A bare `90` is refused, not read as 90 ms,
 * since a person typing it means seconds more often than not. The value is kept as typed; the rest
 * of its form is checked where it is used. The control API keeps its own rule (a bare number is
 * milliseconds).
 */
export function durationWithUnit(value: string): string {
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text) && Number(text) !== 0)
    throw new InvalidArgumentError(
      `A duration needs a unit: ms, s, m, h or d (${text}s, ${text}ms, 10m, 1h30m); a bare number is only 0.`,
    );
  return value;
}

/** Appends the values of a repeatable flag (`--match a=1 --match b=2`). */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
