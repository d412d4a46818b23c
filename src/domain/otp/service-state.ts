import type { JsonObject } from "../../contract/common.js";
import { otpFaultBody, type OtpFaults } from "../../contract/otp.js";
import { AppError } from "../../lib/app-error.js";
import { parseInput } from "../../lib/validation.js";
import { readMeta, writeMeta } from "../../store/core/index.js";
import type { Account } from "../accounts/index.js";
import type { DomainContext } from "../core/index.js";

const OUTAGE_KEY = "otp_unavailable";

/**
 * Checked first by every `/v1` route of the OTP host, after the key: the simulated outage (503
 * unavailable, `msgctl simulate otp-fault unavailable`), then a suspended account (403
 * forbidden, fixture `otp_suspended`). The outage is the service's, so it answers before anything
 * about the account; `/healthz` and the control API stay up.
 */
export function assertServing(ctx: DomainContext, account: Account): void {
  if (otpFaults(ctx).unavailable) {
    throw new AppError("unavailable", 503, "Verification is temporarily unavailable (simulated outage); safe to retry");
  }
  if (account.otpSuspended) throw new AppError("forbidden", 403, `The OTP account of ${account.name} is suspended`);
}

/** The OTP host's simulated faults; kept in the database, so a restart keeps an outage on. */
export function otpFaults(ctx: DomainContext): OtpFaults {
  return { unavailable: readMeta(ctx.db, OUTAGE_KEY) === "1" };
}

/** POST /sandbox/v1/otp/fault: switches the outage on, or off with `off: true`. */
export function setOtpFault(ctx: DomainContext, input: JsonObject): OtpFaults {
  const { off = false } = parseInput(otpFaultBody, input);
  return ctx.db.transaction(() => {
    writeMeta(ctx.db, OUTAGE_KEY, off ? "0" : "1");
    return otpFaults(ctx);
  });
}
