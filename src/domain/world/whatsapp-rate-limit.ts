/**
 * WhatsApp rate limiting of one number: while the fault is on, a
 * send meets a cool-down of 2 minutes that doubles with each repeat up to 30 minutes. Sends held
 * back by it do not count toward the 5 attempts (the retry policy waits for `until`).
 */
const WHATSAPP_COOLDOWN = Object.freeze({ initialMs: 2 * 60_000, ceilingMs: 30 * 60_000 });

/** The cool-down of a number's `level`-th repeated rate limit (0 = first): 2, 4, 8, 16, 30, 30… min. */
export function cooldownMs(level: number): number {
  return Math.min(WHATSAPP_COOLDOWN.initialMs * 2 ** Math.min(level, 30), WHATSAPP_COOLDOWN.ceilingMs);
}

/** Where a number's rate limit stands: its repeat level and the end of its cool-down (null before the first). */
export interface RateLimitState {
  level: number;
  until: number | null;
}

/**
 * A send at `now` meets the limit. Inside the cool-down it waits for its end; after it (or on the
 * first hit) the limit repeats: a new cool-down starts, one level longer than the last.
 */
export function meetRateLimit(state: RateLimitState, now: number): { state: RateLimitState; repeated: boolean } {
  if (state.until !== null && now < state.until) return { state, repeated: false };
  const level = state.until === null ? 0 : state.level + 1;
  return { state: { level, until: now + cooldownMs(level) }, repeated: true };
}
