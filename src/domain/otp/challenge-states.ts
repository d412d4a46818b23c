import type { ChallengeStatus } from "../../contract/statuses.js";
import { AppError, invalidState } from "../../lib/app-error.js";
import { updateChallenge, type ChallengeRow } from "../../store/otp/index.js";
import type { DomainContext } from "../core/index.js";

/** A challenge expires 10 minutes after creation (spec sections 2 and 8). */
export const CHALLENGE_TTL_MS = 10 * 60_000;

/** A pending challenge stops matching after this many wrong texts (spec section 8). */
export const MAX_WRONG_TEXTS = 5;

/** One row of the challenge status table: allowed from-states → to-state, and the timestamp it sets. */
interface ChallengeTransition {
  from: readonly ChallengeStatus[];
  to: ChallengeStatus;
  stamp: "verified_at" | "consumed_at" | null;
}

/**
 * Spec section 3, the OTP challenge status table, as data (STYLE.md rule 5). The conditions
 * (before expiry, fewer than 5 wrong texts, a bare six-digit text from the challenge's phone)
 * are in text-matching.ts; the refusals of consume are CONSUME_REFUSALS below.
 */
export const CHALLENGE_TRANSITIONS = Object.freeze({
  /** POST /v1/challenges. */
  created: { from: [], to: "pending", stamp: null },
  /** The code arrived as a bare six-digit text from the challenge's phone, in time. */
  code_texted: { from: ["pending"], to: "verified", stamp: "verified_at" },
  /** A text that does not match: counted; after 5 the challenge stays pending but no longer matches. */
  wrong_text: { from: ["pending"], to: "pending", stamp: null },
  /** POST /v1/challenges/:id/consume: succeeds exactly once. */
  consumed: { from: ["verified"], to: "consumed", stamp: "consumed_at" },
  /** 10 minutes passed without consume. */
  ten_minutes_passed: { from: ["pending", "verified"], to: "expired", stamp: null },
} satisfies Record<string, ChallengeTransition>);

/** A trigger of the challenge status table. */
export type ChallengeTrigger = keyof typeof CHALLENGE_TRANSITIONS;

/** Consume from any status but verified leaves the challenge unchanged (spec section 3, section 7). */
export const CONSUME_REFUSALS: Readonly<Record<Exclude<ChallengeStatus, "verified">, (id: string) => AppError>> =
  Object.freeze({
    pending: (id: string) =>
      new AppError(
        "not_verified",
        409,
        `Challenge ${id} is pending: the user's text with the code has not arrived yet (keep polling)`,
      ),
    consumed: (id: string) =>
      new AppError("already_consumed", 409, `Challenge ${id} was already consumed: a challenge signs in once`),
    expired: (id: string) =>
      new AppError("expired", 410, `Challenge ${id} expired before it was consumed: create a new challenge`),
  });

/**
 * The status of a challenge at `now`. A pending or verified challenge whose expires_at has come
 * is expired even if its expiry job has not run yet (a real clock's tick may be a little late).
 */
export function statusAt(row: ChallengeRow, now: number): ChallengeStatus {
  if ((row.status === "pending" || row.status === "verified") && now >= row.expires_at) return "expired";
  return row.status;
}

/** True when a text carrying the challenge's code would verify it now (spec section 3, conditions). */
export function isMatchable(row: ChallengeRow, now: number): boolean {
  return statusAt(row, now) === "pending" && row.wrong_texts < MAX_WRONG_TEXTS;
}

/**
 * Applies one row of the table inside the caller's transaction: the status, its timestamp and
 * `changes`. 409 invalid_state when the table does not allow the trigger from the status at `now`.
 * The timestamp is `at` (the clock's now by default), and never earlier than the ones before it:
 * the text that verifies a challenge may be stamped a millisecond or more ahead of the clock (its
 * list's times are unique), and the challenge is verified no earlier than that text, and consumed
 * no earlier than verified.
 */
export function applyChallengeTransition(
  ctx: DomainContext,
  row: ChallengeRow,
  trigger: ChallengeTrigger,
  changes: Partial<Pick<ChallengeRow, "wrong_texts">> = {},
  at?: number,
): ChallengeRow {
  const transition: ChallengeTransition = CHALLENGE_TRANSITIONS[trigger];
  const now = ctx.clock.now();
  const from = trigger === "ten_minutes_passed" ? row.status : statusAt(row, now);
  if (!transition.from.includes(from)) throw invalidState(`A ${from} challenge cannot become ${transition.to}`);
  const stamp = Math.max(at ?? now, row.updated_at, row.verified_at ?? Number.NEGATIVE_INFINITY);
  const next: ChallengeRow = { ...row, ...changes, status: transition.to, updated_at: Math.max(now, stamp) };
  if (transition.stamp) next[transition.stamp] = stamp;
  const { id: _id, ...columns } = next;
  updateChallenge(ctx.db, row.id, columns);
  return next;
}
