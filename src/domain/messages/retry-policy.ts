/**
 * The retry policies of queued sends (spec section 3, section 8; SANDBOX.md section 5). Reactions,
 * edits and unsends follow the same policies; only what "giving up" means differs (their callers
 * drop the action instead of failing the message).
 */
export const RETRY_POLICY = Object.freeze({
  /** Transient send error: retried every 30 s; the 5th failed attempt fails the send. */
  transient: Object.freeze({ retryAfterMs: 30_000, maxAttempts: 5 }),
  /** Sending number offline: backoff 30 s doubling to a 5-minute ceiling; not counted as an attempt. */
  offline: Object.freeze({ initialBackoffMs: 30_000, ceilingMs: 5 * 60_000 }),
  /** WhatsApp rate limit, per number: cool-down 2 min doubling per repeat to 30 min; not counted. */
  rateLimit: Object.freeze({ initialCooldownMs: 2 * 60_000, ceilingMs: 30 * 60_000 }),
  /** Offline or rate-limited sends fail when still blocked this long after their first attempt. */
  windowMs: 24 * 60 * 60_000,
});

/** A send's (or action's) retry bookkeeping. */
export interface RetryState {
  /** Failed attempts that count toward the 5 (transient errors only). */
  attempts: number;
  /** Virtual time of the first attempt. */
  firstAttemptAt: number;
  /** The wait the next offline backoff uses. */
  backoffMs: number;
}

/** Why an attempt did not go out, when it may still go out later. */
export type RetryableFailure =
  | { kind: "transient" }
  | { kind: "offline" }
  | { kind: "rate_limited"; until: number };

/** What to do after a retryable failure: try again at `at`, or give up with `error`. */
export type RetryDecision =
  | { retry: true; at: number; state: RetryState }
  | { retry: false; error: string; state: RetryState };

/** The bookkeeping of a send that has not been attempted yet. */
export const freshRetryState = (firstAttemptAt: number): RetryState => ({
  attempts: 0,
  firstAttemptAt,
  backoffMs: RETRY_POLICY.offline.initialBackoffMs,
});

/** The cool-down of a number's `level`-th repeated rate limit (0 = first): 2, 4, 8, 16, 30, 30… min. */
export function rateLimitCooldownMs(level: number): number {
  const { initialCooldownMs, ceilingMs } = RETRY_POLICY.rateLimit;
  return Math.min(initialCooldownMs * 2 ** Math.min(level, 30), ceilingMs);
}

/**
 * Decides what follows a failed attempt made at `now`. The 24-hour window closes exactly: the
 * last retry is placed on the deadline, and an attempt still blocked there gives up.
 */
export function decideRetry(state: RetryState, failure: RetryableFailure, now: number, numberHandle: string): RetryDecision {
  const { transient, offline } = RETRY_POLICY;
  const deadline = state.firstAttemptAt + RETRY_POLICY.windowMs;
  switch (failure.kind) {
    case "transient": {
      const next = { ...state, attempts: state.attempts + 1, backoffMs: offline.initialBackoffMs };
      if (next.attempts >= transient.maxAttempts) {
        return { retry: false, state: next, error: `Transient send error on ${next.attempts} attempts in a row; gave up` };
      }
      return { retry: true, at: now + transient.retryAfterMs, state: next };
    }
    case "offline": {
      if (now >= deadline) {
        return { retry: false, state, error: `The sending number ${numberHandle} was still offline 24 hours after the first send attempt` };
      }
      const next = { ...state, backoffMs: Math.min(state.backoffMs * 2, offline.ceilingMs) };
      return { retry: true, at: Math.min(now + state.backoffMs, deadline), state: next };
    }
    case "rate_limited": {
      if (now >= deadline) {
        return { retry: false, state, error: `WhatsApp was still rate-limiting ${numberHandle} 24 hours after the first send attempt` };
      }
      return { retry: true, at: Math.min(failure.until, deadline), state: { ...state, backoffMs: offline.initialBackoffMs } };
    }
  }
}
