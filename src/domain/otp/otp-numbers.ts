import { readMeta, writeMeta } from "../../store/core/index.js";
import type { DomainContext } from "../core/index.js";

/** The OTP service's numbers, where users text their codes. */
export interface OtpNumbers {
  number: string;
  whatsapp_number: string | null;
}

const KEY = "otp_numbers";

/** Records the fixture's OTP numbers (seeding); call inside the seeding transaction. */
export function saveOtpNumbers(ctx: DomainContext, numbers: { number: string; whatsapp_number?: string | null }): void {
  writeMeta(ctx.db, KEY, JSON.stringify({ number: numbers.number, whatsapp_number: numbers.whatsapp_number ?? null }));
}

/** The OTP numbers seeded from the fixture. */
export function otpNumbers(ctx: DomainContext): OtpNumbers {
  const raw = readMeta(ctx.db, KEY);
  // A database is always seeded before it serves; the fixture's defaults otherwise.
  return raw ? (JSON.parse(raw) as OtpNumbers) : { number: "+14155550190", whatsapp_number: "+14155550189" };
}

/** True for one of the OTP service's numbers. */
export function isOtpNumber(ctx: DomainContext, handle: string): boolean {
  const numbers = otpNumbers(ctx);
  return handle === numbers.number || handle === numbers.whatsapp_number;
}
