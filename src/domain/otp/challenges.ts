import type { JsonObject } from "../../contract/common.js";
import { createChallengeBody, type ChallengeResource, type CreatedChallenge } from "../../contract/otp.js";
import { AppError, notFound } from "../../lib/app-error.js";
import { clip } from "../../lib/bounded-input.js";
import { isoTime, isoTimeOrNull } from "../../lib/clock.js";
import { normalizePhone } from "../../lib/handles.js";
import { parseInput } from "../../lib/validation.js";
import {
  findAccountChallenge,
  findChallenge,
  insertChallenge,
  liveCodesOfPhone,
  type ChallengeRow,
} from "../../store/otp/index.js";
import type { Account } from "../accounts/index.js";
import { scheduleJob, type DomainContext, type JobHandler } from "../core/index.js";
import { applyChallengeTransition, CHALLENGE_TTL_MS, CONSUME_REFUSALS, statusAt } from "./challenge-states.js";
import { newCode } from "./codes.js";
import { sendToOf, whatsappOf } from "./links.js";
import { otpNumbers } from "./otp-numbers.js";
import { assertWithinRateLimits } from "./rate-limits.js";
import { assertServing } from "./service-state.js";

/** The scheduler job kinds of OTP challenges. */
export const OTP_JOBS = Object.freeze({ expire: "otp.expire" });

/** The payload of the expiry job. */
interface ExpiryJob {
  challenge_id: string;
}

const CHALLENGE_ID = /^chal_[A-Za-z0-9]{24}$/;

/** Input quoted in an error, cut short. */
const quote = (text: string) => JSON.stringify(clip(text));

/** A challenge row as GET and consume show it, with its status at `now`. */
export function toChallenge(row: ChallengeRow, now: number): ChallengeResource {
  return {
    id: row.id,
    status: statusAt(row, now),
    phone: row.phone,
    expires_at: isoTime(row.expires_at),
    verified_at: isoTimeOrNull(row.verified_at),
    consumed_at: isoTimeOrNull(row.consumed_at),
    created_at: isoTime(row.created_at),
  };
}

/** The account's challenge for an id in the path: 404 when malformed, unknown or another account's. */
export function challengeForPath(ctx: DomainContext, accountId: string, id: string): ChallengeRow {
  const row = CHALLENGE_ID.test(id) ? findAccountChallenge(ctx.db, accountId, id) : undefined;
  if (!row) throw notFound(`Challenge ${quote(id)}`);
  return row;
}

/** A user's phone: E.164 or a US national format (spec 4.6), normalized to E.164; undefined when not a valid number. */
export function userPhone(input: string): string | undefined {
  return normalizePhone(input, "US");
}

/**
 * POST /v1/challenges (spec 4.6): validates the phone, checks the rate limits, and creates a
 * pending challenge with a code no other live challenge of the phone has, expiring in 10 minutes.
 */
export function createChallenge(ctx: DomainContext, account: Account, input: JsonObject): CreatedChallenge {
  assertServing(ctx, account);
  const body = parseInput(createChallengeBody, input);
  const phone = userPhone(body.phone);
  if (!phone) {
    throw new AppError(
      "invalid_phone",
      400,
      `phone: ${quote(body.phone)} is not a valid phone number (E.164 such as +14155550123, or a US number such as (415) 555-0123)`,
    );
  }
  // The code is texted to that number: from itself, it could never arrive.
  const numbers = otpNumbers(ctx);
  if (phone === numbers.number || phone === numbers.whatsapp_number)
    throw new AppError(
      "invalid_phone",
      400,
      `phone: ${phone} is the OTP service's own number; users text the code to it`,
    );
  return ctx.db.transaction(() => {
    assertWithinRateLimits(ctx, account.id, phone);
    const now = ctx.clock.now();
    const code = newCode(ctx.ids, new Set(liveCodesOfPhone(ctx.db, phone, now)));
    const id = `chal_${ctx.ids.token(24)}`;
    const expiresAt = now + CHALLENGE_TTL_MS;
    // CHALLENGE_TRANSITIONS.created: pending, with its expiry scheduled.
    insertChallenge(ctx.db, {
      id,
      account_id: account.id,
      phone,
      code,
      app_name: account.appName,
      status: "pending",
      wrong_texts: 0,
      expires_at: expiresAt,
      verified_at: null,
      consumed_at: null,
      created_at: now,
      updated_at: now,
    });
    const job: ExpiryJob = { challenge_id: id };
    scheduleJob(ctx, OTP_JOBS.expire, job, expiresAt);
    return {
      id,
      code,
      phone,
      expires_at: isoTime(expiresAt),
      send_to: sendToOf(numbers, code),
      whatsapp: whatsappOf(numbers, code),
    };
  });
}

/** GET /v1/challenges/:id. */
export function getChallenge(ctx: DomainContext, account: Account, id: string): ChallengeResource {
  assertServing(ctx, account);
  return toChallenge(challengeForPath(ctx, account.id, id), ctx.clock.now());
}

/**
 * POST /v1/challenges/:id/consume: verified → consumed, exactly once; any other status is
 * refused and changes nothing (spec section 3). One transaction, so concurrent consumes of one
 * challenge are decided one after the other: the first succeeds, the rest see it consumed.
 */
export function consumeChallenge(ctx: DomainContext, account: Account, id: string): ChallengeResource {
  assertServing(ctx, account);
  return ctx.db.transaction(() => {
    const row = challengeForPath(ctx, account.id, id);
    const now = ctx.clock.now();
    const status = statusAt(row, now);
    if (status !== "verified") throw CONSUME_REFUSALS[status](row.id);
    return toChallenge(applyChallengeTransition(ctx, row, "consumed"), now);
  });
}

/** 10 minutes after creation (job `otp.expire`): a pending or verified challenge expires. */
export const runExpiry: JobHandler = (ctx, job: ExpiryJob) => {
  const row = findChallenge(ctx.db, job.challenge_id);
  if (row && (row.status === "pending" || row.status === "verified"))
    applyChallengeTransition(ctx, row, "ten_minutes_passed");
};
