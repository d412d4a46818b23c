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

/** Appends the values of a repeatable flag (`--match a=1 --match b=2`). */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
