import type { JsonObject } from "../../contract/common.js";
import type { Channel } from "../../contract/common.js";
import {
  challengeTextBody,
  listOtpTextsQuery,
  otpTextBody,
  type OtpText,
  type OtpTextResult,
  type TextOutcome,
} from "../../contract/otp.js";
import { invalidRequest } from "../../lib/app-error.js";
import { isoTime } from "../../lib/clock.js";
import { timeOrderedUuid } from "../../lib/time-ordered-id.js";
import { parseInput } from "../../lib/validation.js";
import {
  findChallenge,
  insertOtpText,
  listOtpTextRows,
  listPhoneChallenges,
  type OtpTextRow,
} from "../../store/otp/index.js";
import { nextListTime, type DomainContext } from "../core/index.js";
import { contactProfile } from "../world/index.js";
import { applyChallengeTransition } from "./challenge-states.js";
import { challengeForPath, toChallenge, userPhone } from "./challenges.js";
import { wrongCode } from "./codes.js";
import { otpNumbers } from "./otp-numbers.js";
import { REPLIES } from "./replies.js";
import { judgeText } from "./text-matching.js";

/** A text on its way to an OTP number, validated. */
interface Delivery {
  from: string;
  text: string;
  channel?: Channel;
  members?: string[];
}

// The OTP texts are one list for the whole sandbox (the threads are the world's): one scope key.
const TEXTS_SCOPE = "";

/** A text row as the control API shows it. */
function toOtpText(row: OtpTextRow): OtpText {
  return {
    id: row.id,
    phone: row.phone,
    otp_number: row.otp_number,
    channel: row.channel,
    direction: row.direction,
    text: row.text,
    members: row.members === null ? null : (JSON.parse(row.members) as string[]),
    outcome: row.outcome as TextOutcome | null,
    created_at: isoTime(row.created_at),
  };
}

function phoneField(value: string, field: string): string {
  const phone = userPhone(value);
  if (!phone) throw invalidRequest(`${field}: ${JSON.stringify(value)} is not a valid phone number`);
  return phone;
}

/** The channel and OTP number a text travels on: the phone must be able to use the channel. */
function routeOf(
  ctx: DomainContext,
  from: string,
  requested: Channel | undefined,
): { channel: Channel; otpNumber: string } {
  const numbers = otpNumbers(ctx);
  const profile = contactProfile(ctx, from);
  const channel = requested ?? (profile.imessage ? "imessage" : "sms");
  if (channel === "whatsapp") {
    if (!numbers.whatsapp_number)
      throw invalidRequest("channel: this sandbox's OTP service has no WhatsApp number (fixture otp.whatsapp_number)");
    if (!profile.whatsapp) throw invalidRequest(`from: ${from} is not on WhatsApp (contacts set ${from} --whatsapp)`);
    return { channel, otpNumber: numbers.whatsapp_number };
  }
  if (channel === "imessage" && !profile.imessage)
    throw invalidRequest(`from: ${from} is not registered with iMessage (contacts set ${from} --imessage)`);
  return { channel, otpNumber: numbers.number };
}

/**
 * A phone's text reaches an OTP number: judged by the matching rule (text-matching.ts), the
 * challenge moved by the status table, the text and the reply recorded in the thread, all in one
 * transaction. `challengeId` names the challenge the caller texted for (it is shown after).
 */
function receiveText(ctx: DomainContext, accountId: string, delivery: Delivery, challengeId?: string): OtpTextResult {
  const { channel, otpNumber } = routeOf(ctx, delivery.from, delivery.channel);
  const otherMembers = [...new Set(delivery.members ?? [])];
  if (otherMembers.some((member) => member === delivery.from || member === otpNumber)) {
    throw invalidRequest("members: list the group's other members, not the sender or the OTP number");
  }
  return ctx.db.transaction(() => {
    const now = ctx.clock.now();
    const judgement = judgeText(
      { text: delivery.text, group: otherMembers.length > 0 },
      listPhoneChallenges(ctx.db, delivery.from),
      now,
    );
    const record = (direction: "inbound" | "outbound", text: string): OtpTextRow => {
      const createdAt = nextListTime(ctx, "otp_texts", TEXTS_SCOPE);
      const row: OtpTextRow = {
        id: timeOrderedUuid(ctx.ids, createdAt),
        phone: delivery.from,
        otp_number: otpNumber,
        channel,
        direction,
        text,
        members: direction === "inbound" && otherMembers.length > 0 ? JSON.stringify(otherMembers) : null,
        outcome: direction === "inbound" ? judgement.outcome : null,
        challenge_id: judgement.challenge?.id ?? null,
        created_at: createdAt,
      };
      insertOtpText(ctx.db, row);
      return row;
    };
    const inbound = record("inbound", delivery.text);
    // The challenge changes at the text's own time, which may be ahead of the clock's now.
    if (judgement.outcome === "verified" && judgement.challenge)
      applyChallengeTransition(ctx, judgement.challenge, "code_texted", {}, inbound.created_at);
    for (const row of judgement.counted)
      applyChallengeTransition(ctx, row, "wrong_text", { wrong_texts: row.wrong_texts + 1 }, inbound.created_at);
    const reply =
      judgement.outcome === "ignored"
        ? undefined
        : record("outbound", REPLIES[judgement.outcome](judgement.challenge?.app_name ?? "the app"));

    // Only this account's challenge is shown: a text can concern another app's challenge.
    const shownId = challengeId ?? (judgement.challenge?.account_id === accountId ? judgement.challenge.id : undefined);
    const shown = shownId === undefined ? undefined : findChallenge(ctx.db, shownId);
    return {
      text: toOtpText(inbound),
      reply: reply ? toOtpText(reply) : null,
      outcome: judgement.outcome,
      explanation: judgement.explanation,
      challenge: shown ? toChallenge(shown, now) : null,
    };
  });
}

/** POST /sandbox/v1/otp/texts: a phone texts an OTP number (docs/otp.md, "Texts"). */
export function textOtpNumber(ctx: DomainContext, accountId: string, input: JsonObject): OtpTextResult {
  const body = parseInput(otpTextBody, input);
  return receiveText(ctx, accountId, {
    from: phoneField(body.from, "from"),
    text: body.text,
    channel: body.channel,
    members: body.members?.map((member, i) => phoneField(member, `members.${i}`)),
  });
}

/**
 * POST /sandbox/v1/otp/challenges/:id/texts: the challenge's user texts its code (the default),
 * a wrong six-digit code, another `code`, or any `text`, from its phone or `from` another.
 */
export function textChallenge(ctx: DomainContext, accountId: string, id: string, input: unknown): OtpTextResult {
  const row = challengeForPath(ctx, accountId, id);
  const body = parseInput(challengeTextBody, input) ?? {};
  const chosen = [
    body.code !== undefined && "code",
    body.wrong === true && "wrong",
    body.text !== undefined && "text",
  ].filter(Boolean);
  if (chosen.length > 1) throw invalidRequest(`${chosen[1]}: send one of code, wrong and text`);
  const from = body.from === undefined ? row.phone : phoneField(body.from, "from");
  // A wrong code is one that none of the sender's challenges has, so it can only be wrong.
  const text =
    body.text ??
    body.code ??
    (body.wrong ? wrongCode(row.code, new Set(listPhoneChallenges(ctx.db, from).map((c) => c.code))) : row.code);
  const members = body.members?.map((member, i) => phoneField(member, `members.${i}`));
  return receiveText(ctx, accountId, { from, text, channel: body.channel, members }, row.id);
}

/**
 * GET /sandbox/v1/otp/texts: the texts of the OTP numbers' threads with the phones this account
 * has created challenges for, newest first (`before` on created_at), optionally one phone's.
 */
export function listOtpTexts(
  ctx: DomainContext,
  accountId: string,
  query: Record<string, string>,
): { data: OtpText[]; hasMore: boolean } {
  const { limit, before, phone } = parseInput(
    listOtpTextsQuery,
    { limit: query.limit, before: query.before, phone: query.phone },
    "query",
  );
  const rows = listOtpTextRows(ctx.db, accountId, {
    phone: phone === undefined ? undefined : phoneField(phone, "phone"),
    before,
    limit: limit + 1,
  });
  return { data: rows.slice(0, limit).map(toOtpText), hasMore: rows.length > limit };
}
