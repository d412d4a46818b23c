import { z } from "zod";
import { channel, pageQuery, timestamp } from "./common.js";
import { CHALLENGE_STATUSES } from "./statuses.js";

/**
 * The OTP service's wire shapes (spec sections 2, 3, 4.6) and its control API: the user's texts
 * to the OTP numbers, their threads, and the simulated outage.
 */

const challengeId = z.string().meta({ description: "opaque challenge id", example: "chal_4fQ9mZ0c2LkT8vW1xY7bN3pR" });

/** POST /v1/challenges (spec 4.6). */
export const createChallengeBody = z.strictObject({
  // Any string reaches the domain, which answers invalid_phone for one that is not a number.
  phone: z
    .string({ error: (issue) => (issue.input === undefined ? "required" : "must be a string") })
    .meta({ description: "E.164, or a US national format such as (415) 555-2671", example: "+14155550123" }),
});
/** The body of POST /v1/challenges. */
export type CreateChallengeInput = z.input<typeof createChallengeBody>;

/** Where the user texts the code over iMessage or SMS (spec section 2). */
const sendTo = z.object({
  number: z.string().meta({ description: "the OTP number, E.164", example: "+14155550190" }),
  display: z.string().meta({ description: "the number formatted for people", example: "(415) 555-0190" }),
  sms_link: z
    .string()
    .meta({ description: "sms:<number>?&body=<code>, `+` unescaped", example: "sms:+14155550190?&body=482913" }),
});

/** Where the user texts the code over WhatsApp (spec section 2). */
const whatsappTarget = z.object({
  number: z.string().meta({ example: "+14155550189" }),
  display: z.string().meta({ example: "(415) 555-0189" }),
  link: z.string().meta({
    description: "{whatsapp_link}/<digits>?text=<code>; the sandbox's base is https://wa.me",
    example: "https://wa.me/14155550189?text=482913",
  }),
});

/** The create response (spec section 2): the only answer that carries the code. */
export const createdChallenge = z
  .object({
    id: challengeId,
    code: z.string().meta({ description: "six digits; returned only here", example: "482913" }),
    phone: z.string().meta({ description: "normalized E.164" }),
    expires_at: timestamp.meta({ description: "10 minutes after creation" }),
    send_to: sendTo,
    whatsapp: whatsappTarget
      .nullable()
      .meta({ description: "null when the sandbox's fixture offers no WhatsApp OTP number" }),
  })
  .meta({
    id: "CreatedChallenge",
    description: "The create response (spec section 2): the only answer that carries the code",
  });
/** The create response of POST /v1/challenges. */
export type CreatedChallenge = z.output<typeof createdChallenge>;

/** A challenge as GET and consume return it (spec section 2). */
export const challengeResource = z
  .object({
    id: challengeId,
    status: z.enum(CHALLENGE_STATUSES),
    phone: z.string(),
    expires_at: timestamp,
    verified_at: timestamp.nullable(),
    consumed_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: "Challenge", description: "A challenge (spec section 2); its status follows spec section 3" });
/** A challenge as GET and consume return it. */
export type ChallengeResource = z.output<typeof challengeResource>;

// --- Control API: the user's texts to the OTP numbers ---

const text = z.string().min(1, "must not be empty").max(2_000, "must be at most 2000 characters");
const phoneField = z.string().max(64, "must be at most 64 characters");
const members = z
  .array(phoneField)
  .min(1, "must list at least one other member (omit it for a one-to-one text)")
  .max(31, "at most 31 other members")
  .meta({ description: "the other members of a group chat the text was sent in (group texts are ignored)" });

/** POST /sandbox/v1/otp/texts: a phone texts one of the OTP numbers. */
export const otpTextBody = z.strictObject({
  from: phoneField.meta({ description: "the user's phone (E.164 or US national)" }),
  text,
  channel: channel.optional().meta({
    description: "default: iMessage when the phone is on it, else SMS; whatsapp texts the WhatsApp OTP number",
  }),
  members: members.optional(),
});
/** A phone's text to an OTP number. */
export type OtpTextInput = z.input<typeof otpTextBody>;

/** POST /sandbox/v1/otp/challenges/:id/texts: the challenge's user texts its code, a wrong one or anything. */
export const challengeTextBody = z
  .strictObject({
    code: z.string().min(1).max(64).optional().meta({ description: "text this instead of the right code" }),
    wrong: z.boolean().optional().meta({ description: "text a six-digit code that is not this challenge's" }),
    text: text.optional().meta({ description: "text these exact words (e.g. with other words around the code)" }),
    from: phoneField.optional().meta({ description: "another phone than the challenge's" }),
    channel: channel.optional(),
    members: members.optional(),
  })
  .optional();
/** What the challenge's user texts (all optional: the right code from the challenge's phone). */
export type ChallengeTextInput = NonNullable<z.input<typeof challengeTextBody>>;

/** Why a text was handled the way it was (docs/otp.md, "Texts"). */
export const TEXT_OUTCOMES = [
  "verified",
  "wrong_code",
  "locked",
  "expired",
  "already_verified",
  "already_consumed",
  "ignored",
] as const;
/** What became of a text. */
export type TextOutcome = (typeof TEXT_OUTCOMES)[number];

/** One text in an OTP number's thread with a phone: the user's (inbound) or the service's reply (outbound). */
export const otpText = z
  .object({
    id: z.string(),
    phone: z.string().meta({ description: "the user's phone" }),
    otp_number: z.string().meta({ description: "the OTP number of the thread (the WhatsApp one for WhatsApp texts)" }),
    channel,
    direction: z
      .enum(["inbound", "outbound"])
      .meta({ description: "inbound: the user's text; outbound: the service's reply" }),
    text: z.string(),
    members: z.array(z.string()).nullable().meta({ description: "other members when the text came from a group chat" }),
    outcome: z.enum(TEXT_OUTCOMES).nullable().meta({ description: "inbound texts: what the service made of it" }),
    created_at: timestamp,
  })
  .meta({ id: "OtpText", description: "One text in an OTP number's thread with a phone" });
/** One text in an OTP thread. */
export type OtpText = z.output<typeof otpText>;

/** The answer to a text: what was recorded, the reply the user got, and the challenge after it. */
export const otpTextResult = z
  .object({
    text: otpText,
    reply: otpText.nullable().meta({ description: "null when the text was ignored" }),
    outcome: z.enum(TEXT_OUTCOMES),
    explanation: z.string().meta({ description: "why, in a sentence" }),
    challenge: challengeResource
      .nullable()
      .meta({ description: "the challenge texted (by id), or this account's challenge the text concerned" }),
  })
  .meta({ id: "OtpTextResult" });
/** The answer to a text. */
export type OtpTextResult = z.output<typeof otpTextResult>;

/** GET /sandbox/v1/otp/texts query: newest first, optionally one phone's. */
export const listOtpTextsQuery = pageQuery.extend({ phone: phoneField.optional() });

// --- Control API: the simulated outage ---

/** POST /sandbox/v1/otp/fault. */
export const otpFaultBody = z.strictObject({
  fault: z.literal("unavailable", { error: 'must be "unavailable"' }),
  off: z.boolean().optional().meta({ description: "end the outage" }),
});

/** The OTP host's simulated faults. */
export const otpFaults = z
  .object({
    unavailable: z.boolean().meta({ description: "true: every /v1 path of the OTP host answers 503 unavailable" }),
  })
  .meta({ id: "OtpFaults" });
/** The OTP host's simulated faults. */
export type OtpFaults = z.output<typeof otpFaults>;

// --- Control API: the challenges as the sandbox sees them (the inspector) ---

/** A challenge with what only the sandbox may show: its code and its wrong texts (GET /sandbox/v1/otp/challenges). */
export const otpChallengeView = challengeResource
  .extend({
    code: z.string().meta({ description: "the six digits the user must text; /v1 shows it only at creation" }),
    wrong_texts: z.number().int().meta({ description: "wrong codes texted so far; at 5 the challenge stops matching" }),
  })
  .meta({ id: "OtpChallengeView", description: "A challenge with its code and wrong texts, for the inspector" });
/** A challenge with its code and wrong texts. */
export type OtpChallengeView = z.output<typeof otpChallengeView>;

/** GET /sandbox/v1/otp/challenges query: the newest `limit` (challenges are short-lived: no cursor). */
export const listOtpChallengesQuery = pageQuery.pick({ limit: true });
