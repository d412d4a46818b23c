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
