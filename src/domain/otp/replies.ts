import type { TextOutcome } from "../../contract/otp.js";

/**
 * What the OTP number answers, in the same thread (spec section 3): a confirmation naming the
 * app, or a reply saying what went wrong and asking for a new challenge. Ignored texts get none.
 */
export const REPLIES: Readonly<Record<Exclude<TextOutcome, "ignored">, (app: string) => string>> = Object.freeze({
  verified: (app: string) => `Your phone number is verified for ${app}. You can go back to ${app} now.`,
  wrong_code: (app: string) => `That code doesn't match. Please request a new code in ${app} and text it here.`,
  locked: (app: string) => `Too many wrong codes. Please request a new code in ${app} and text it here.`,
  expired: (app: string) => `That code has expired. Please request a new code in ${app} and text it here.`,
  already_verified: (app: string) => `Your phone number is already verified for ${app}.`,
  already_consumed: (app: string) =>
    `That code has already been used. Please request a new code in ${app} if you need to verify again.`,
});
