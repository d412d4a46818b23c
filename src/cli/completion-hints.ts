/**
 * What the shell completion (`msgctl completion`) offers for a flag or an argument whose values
 * commander does not check itself (no `.choices()`): declared beside the flag in its registrar,
 * so the completion is generated from the program and follows it.
 */
export interface CompletionHint {
  values: readonly string[];
  /** The flag takes several values separated by commas (`--events a,b`). */
  commaSeparated?: boolean;
}

const hints = new WeakMap<object, CompletionHint>();

/** Marks a flag or an argument as taking these values; returns it, for `.addOption()` / `.addArgument()`. */
export function completes<T extends object>(target: T, hint: CompletionHint): T {
  hints.set(target, hint);
  return target;
}

/** The values declared with `completes`, if any. */
export function completionHint(target: object): CompletionHint | undefined {
  return hints.get(target);
}
