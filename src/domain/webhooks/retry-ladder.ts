import type { RetryLadder } from "../../contract/index.js";

/**
 * The webhook retry ladder, spec section 6 delivery rule 2: 8 attempts in all, with these waits
 * between them, then the delivery is marked failed. Exact, no jitter (docs/webhooks.md, "The retry ladder"); a
 * wait counts from the virtual time the previous attempt started.
 */
export const RETRY_WAITS_MS: readonly number[] = Object.freeze([
  5_000, // 5 s
  60_000, // 1 m
  600_000, // 10 m
  3_600_000, // 1 h
  14_400_000, // 4 h
  28_800_000, // 8 h
  43_200_000, // 12 h
]);

/** Attempts a delivery gets before it is marked failed (spec section 8). */
export const MAX_ATTEMPTS = RETRY_WAITS_MS.length + 1;

/** The wait before the attempt after attempt `n` (1-based), or undefined after the last one. */
export function waitAfterAttempt(n: number): number | undefined {
  return RETRY_WAITS_MS[n - 1];
}

/** The ladder as the control API serves it: the inspector draws these waits, it keeps no copy. */
export function getRetryLadder(): RetryLadder {
  return { attempts: MAX_ATTEMPTS, waits_ms: [...RETRY_WAITS_MS] };
}
