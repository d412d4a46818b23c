import { invalidRequest } from "../../lib/app-error.js";
import { clip } from "../../lib/bounded-input.js";
import { normalizePhone } from "../../lib/handles.js";
import type { DomainContext } from "../core/index.js";
import { isOtpNumber } from "../otp/index.js";
import { numberByHandle, type AccountNumber } from "../world/index.js";

/** The account's number named by `to` in a simulate body (400 naming `to` otherwise). */
export function accountNumberOf(
  ctx: DomainContext,
  accountId: string,
  to: string | undefined,
  unless = "group",
): AccountNumber {
  if (to === undefined) throw invalidRequest(`to: required (one of the account's numbers) unless ${unless} is set`);
  const handle = normalizePhone(to);
  const number = handle ? numberByHandle(ctx, handle) : undefined;
  if (!number || number.accountId !== accountId) {
    // The OTP numbers are the OTP service's, on the other host: texts to them are judged there.
    if (handle && isOtpNumber(ctx, handle)) {
      throw invalidRequest(
        `to: ${handle} is the OTP service's number: text it with \`msgctl otp text\` (POST /sandbox/v1/otp/texts on the OTP host)`,
      );
    }
    throw invalidRequest(`to: ${clip(to)} is not one of this account's numbers`);
  }
  return number;
}
