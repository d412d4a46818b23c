/**
 * The OTP service (spec sections 1-3, 4.6, 7, 8): challenges with their status table, codes and
 * links, the rate limits, the user's texts to the OTP numbers and the replies in their threads,
 * and the host's simulated outage.
 */
import type { DomainModule } from "../core/index.js";
import { OTP_JOBS, runExpiry } from "./challenges.js";

export {
  CHALLENGE_TRANSITIONS,
  CHALLENGE_TTL_MS,
  CONSUME_REFUSALS,
  MAX_WRONG_TEXTS,
  statusAt,
  type ChallengeTrigger,
} from "./challenge-states.js";
export { listChallenges } from "./challenge-list.js";
export { consumeChallenge, createChallenge, getChallenge, toChallenge, userPhone } from "./challenges.js";
export { bareCodeOf, CODE_LENGTH } from "./codes.js";
export { WHATSAPP_LINK_BASE } from "./links.js";
export { isOtpNumber, otpNumbers, saveOtpNumbers, type OtpNumbers } from "./otp-numbers.js";
export { RATE_LIMITS } from "./rate-limits.js";
export { REPLIES } from "./replies.js";
export { otpFaults, setOtpFault } from "./service-state.js";
export { judgeText, type IncomingText, type TextJudgement } from "./text-matching.js";
export { listOtpTexts, textChallenge, textOtpNumber, toOtpText } from "./texts.js";

/** What OTP plugs in: the expiry of each challenge, 10 minutes after its creation. */
export const otpModule: DomainModule = {
  name: "otp",
  jobs: { [OTP_JOBS.expire]: runExpiry },
};
