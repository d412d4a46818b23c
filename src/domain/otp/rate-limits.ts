import { AppError } from "../../lib/app-error.js";
import { challengeTimesSince, type ChallengeScope } from "../../store/otp/index.js";
import type { DomainContext } from "../core/index.js";

/** One limit on POST /v1/challenges: at most `max` challenges in any `windowMs` for a scope. */
interface RateLimit {
  max: number;
  windowMs: number;
  /** Who is counted. */
  scope: (accountId: string, phone: string) => ChallengeScope;
  /** What the 429 says was exceeded. */
  what: string;
}

const MINUTE = 60_000;

/**
 * Spec section 8's OTP limits, on sliding windows of the sandbox clock: a challenge counts for
 * exactly one minute after its creation, so the limit lifts when the oldest counted one is a
 * minute old. Refused requests do not count. Checked in this order; the first exceeded answers.
 */
const RATE_LIMITS: readonly RateLimit[] = Object.freeze([
  {
    max: 3,
    windowMs: MINUTE,
    scope: (accountId, phone) => ({ accountId, phone }),
    what: "3 challenges per minute for one phone from this account",
  },
  {
    max: 10,
    windowMs: MINUTE,
    scope: (_accountId, phone) => ({ phone }),
    what: "10 challenges per minute for one phone across all apps",
  },
  {
    max: 120,
    windowMs: MINUTE,
    scope: (accountId) => ({ accountId }),
    what: "120 challenges per minute for this account",
  },
]);

/**
 * 429 rate_limited when creating a challenge for `phone` now would exceed a limit, with a
 * `Retry-After` (whole seconds) for when the window lets one more through. Call in the creating
 * transaction, so that concurrent requests are counted one after the other.
 */
export function assertWithinRateLimits(ctx: DomainContext, accountId: string, phone: string): void {
  const now = ctx.clock.now();
  for (const limit of RATE_LIMITS) {
    const times = challengeTimesSince(ctx.db, limit.scope(accountId, phone), now - limit.windowMs);
    if (times.length < limit.max) continue;
    // One more fits once the challenge `max` places from the newest leaves the window.
    const freeAt = (times[times.length - limit.max] as number) + limit.windowMs;
    const seconds = Math.max(1, Math.ceil((freeAt - now) / 1000));
    throw new AppError("rate_limited", 429, `Too many challenges: at most ${limit.what}. Try again in ${seconds} s`, {
      "retry-after": String(seconds),
    });
  }
}
