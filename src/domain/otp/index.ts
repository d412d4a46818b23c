/**
 * The OTP service (spec sections 1-3, 4.6, 7, 8): challenges with their status table, codes and
 * links, the rate limits, the user's texts to the OTP numbers and the replies in their threads,
 * and the host's simulated outage.
 */
import type { DomainModule } from "../core/index.js";
import { OTP_JOBS, runExpiry } from "./challenges.js";

export { listChallenges } from "./challenge-list.js";
export { consumeChallenge, createChallenge, getChallenge } from "./challenges.js";
export { isOtpNumber, saveOtpNumbers } from "./otp-numbers.js";
export { otpFaults, setOtpFault } from "./service-state.js";
export { listOtpTexts, textChallenge, textOtpNumber } from "./texts.js";

/** What OTP plugs in: the expiry of each challenge, 10 minutes after its creation. */
export const otpModule: DomainModule = {
  name: "otp",
  jobs: { [OTP_JOBS.expire]: runExpiry },
};
