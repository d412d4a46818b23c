/** The OTP service's rows: challenges (codes, rate-limit counts) and the texts of its numbers' threads. */
export {
  challengeTimesSince,
  findAccountChallenge,
  findChallenge,
  insertChallenge,
  listAccountChallenges,
  listPhoneChallenges,
  liveCodesOfPhone,
  updateChallenge,
  type ChallengeRow,
  type ChallengeScope,
} from "./challenges.js";
export { insertOtpText, listOtpTextRows, type OtpTextRow } from "./texts.js";
export type { OtpTables } from "./tables.js";
