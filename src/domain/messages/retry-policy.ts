import type { RetryableFailure } from "../world/index.js";

export type { RetryableFailure };

/**
 * The retry policies of queued sends (spec section 3, section 8). Reactions,
 * edits and unsends follow the same policies; only what "giving up" means differs (their callers
 * drop the action instead of failing the message). The WhatsApp cool-down itself is the number's
 * (world/whatsapp-rate-limit.ts): a rate-limited send waits for its end.
 */
export const RETRY_POLICY = Object.freeze({
  /** Transient send error: retried every 30 s; the 5th failed attempt fails the send. */
  transient: Object.freeze({ retryAfterMs: 30_000, maxAttempts: 5 }),
  /** Sending number offline: backoff 30 s doubling to a 5-minute ceiling; not counted as an attempt. */
  offline: Object.freeze({ initialBackoffMs: 30_000, ceilingMs: 5 * 60_000 }),
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

/** What to do after a retryable failure: try again at `at`, or give up with `error`. */
export type RetryDecision =
  | { retry: true; at: number; state: RetryState }
  | { retry: false; error: string; state: RetryState };

/** The retry bookkeeping columns of a send or action not attempted yet (new, or retried after failing). */
export interface RetryColumns {
  attempts: number;
  first_attempt_at: number | null;
  backoff_ms: number;
}

/** Fresh retry bookkeeping: no attempt counted, no first attempt, the offline backoff at its start. */
export function freshRetryColumns(): RetryColumns {
  return { attempts: 0, first_attempt_at: null, backoff_ms: RETRY_POLICY.offline.initialBackoffMs };
}

/** A job's retry state from its columns; an attempt being made now counts as the first when none was. */
export function retryStateOf(columns: RetryColumns, now: number): RetryState {
  return { attempts: columns.attempts, firstAttemptAt: columns.first_attempt_at ?? now, backoffMs: columns.backoff_ms };
}

/** The columns that record a retry decision's state. */
export function retryColumnsOf(state: RetryState): RetryColumns {
  return { attempts: state.attempts, first_attempt_at: state.firstAttemptAt, backoff_ms: state.backoffMs };
}

/**
 * Decides what follows a failed attempt made at `now`. The 24-hour window closes exactly: the
 * last retry is placed on the deadline, and an attempt still blocked there gives up.
 */
export function decideRetry(
  state: RetryState,
  failure: RetryableFailure,
  now: number,
  numberHandle: string,
): RetryDecision {
  const { transient, offline } = RETRY_POLICY;
  const deadline = state.firstAttemptAt + RETRY_POLICY.windowMs;
  switch (failure.kind) {
    case "transient": {
      const next = { ...state, attempts: state.attempts + 1, backoffMs: offline.initialBackoffMs };
      if (next.attempts >= transient.maxAttempts) {
        return {
          retry: false,
          state: next,
          error: `Transient send error on ${next.attempts} attempts in a row; gave up`,
        };
      }
      return { retry: true, at: now + transient.retryAfterMs, state: next };
    }
    case "offline": {
      if (now >= deadline) {
        return {
          retry: false,
          state,
          error: `The sending number ${numberHandle} was still offline 24 hours after the first send attempt`,
        };
      }
      const next = { ...state, backoffMs: Math.min(state.backoffMs * 2, offline.ceilingMs) };
      return { retry: true, at: Math.min(now + state.backoffMs, deadline), state: next };
    }
    case "rate_limited": {
      if (now >= deadline) {
        return {
          retry: false,
          state,
          error: `WhatsApp was still rate-limiting ${numberHandle} 24 hours after the first send attempt`,
        };
      }
      return {
        retry: true,
        at: Math.min(failure.until, deadline),
        state: { ...state, backoffMs: offline.initialBackoffMs },
      };
    }
  }
}
