import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/max";
import { INPUT_LIMITS } from "./bounded-input.js";

/** A recipient or sender address: an E.164 phone number or an iMessage email address. */
export type Handle = { kind: "phone"; value: string } | { kind: "email"; value: string };

// Deliberately simple: iMessage addresses are ordinary mailbox@domain.tld forms. No control or
// invisible format character (\p{C}: NUL, zero-width space, bidi overrides): "a@b.co\u200b"
// would be a second thread with an address that looks like the first.
const EMAIL = /^[^\s@\p{C}]+@[^\s@\p{C}]+\.[^\s@\p{C}]+$/u;

/**
 * Normalizes a phone number to E.164, validating it as a real number (libphonenumber-js, max
 * metadata). `defaultCountry` lets national formats through (the OTP host accepts US ones).
 * The whole input must be the number: libphonenumber-js would otherwise pick one out of a
 * sentence ("call me at 415…"), and an extension is refused, since no text can be sent to one.
 */
export function normalizePhone(input: string, defaultCountry?: CountryCode): string | undefined {
  const text = input.trim();
  if (text === "" || text.length > INPUT_LIMITS.phone) return undefined;
  if (!defaultCountry && !text.startsWith("+")) return undefined;
  const parsed = parsePhoneNumberFromString(text, { defaultCountry, extract: false });
  return parsed?.isValid() && !parsed.ext ? parsed.number : undefined;
}

/** Parses a handle: a valid phone number (to E.164) or an email (lower-cased). */
export function parseHandle(input: string): Handle | undefined {
  // The email pattern backtracks quadratically on long input: bound it first.
  if (input.length > INPUT_LIMITS.handle) return undefined;
  const text = input.trim();
  if (EMAIL.test(text)) return { kind: "email", value: text.toLowerCase() };
  const phone = normalizePhone(text);
  return phone ? { kind: "phone", value: phone } : undefined;
}

/**
 * A phone number formatted for people: national for North American numbers (`(415) 555-0190`),
 * international elsewhere (`+44 20 7946 0018`), since a national form hides the country.
 */
export function displayPhone(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return e164;
  return parsed.countryCallingCode === "1" ? parsed.formatNational() : parsed.formatInternational();
}
