import { INPUT_LIMITS } from "./bounded-input.js";
import { parseHandle, type Handle } from "./handles.js";

const MAX_ENTRIES = 10_000;
const memo = new Map<string, Handle | null>();

/**
 * parseHandle, remembered: validating a number with libphonenumber-js costs about 12 µs, and the
 * send endpoint sees the same few handles over and over. Bounded so odd input cannot grow it.
 */
export function parseHandleMemo(input: string): Handle | undefined {
  // Too long to be a handle: never a memo key, or odd input could hold megabytes in it.
  if (input.length > INPUT_LIMITS.handle) return undefined;
  let parsed = memo.get(input);
  if (parsed === undefined) {
    parsed = parseHandle(input) ?? null;
    if (memo.size >= MAX_ENTRIES) memo.clear();
    memo.set(input, parsed);
  }
  return parsed ?? undefined;
}
