import type { TextOutcome } from "../../contract/otp.js";
import { isoTime } from "../../lib/clock.js";
import type { ChallengeRow } from "../../store/otp/index.js";
import { isMatchable, MAX_WRONG_TEXTS, statusAt } from "./challenge-states.js";
import { bareCodeOf } from "./codes.js";

/** A text that reached an OTP number, as the matching rule sees it. */
export interface IncomingText {
  text: string;
  /** True when it was sent in a group chat. */
  group: boolean;
}

/** What the service makes of a text. */
export interface TextJudgement {
  outcome: TextOutcome;
  /** The challenge the text is about: the one it verifies, or whose code it carries, or whose app a reply names. */
  challenge: ChallengeRow | undefined;
  /** Challenges a wrong text counts against (each gets one more wrong text). */
  counted: ChallengeRow[];
  /** Why, in a sentence (no other account's ids in it). */
  explanation: string;
}

/**
 * Spec 4.6 and section 3, the rule that matches a user's text to a challenge. `challenges` are
 * every challenge ever created for the sender's phone, of any account, newest first.
 *
 * 1. Texts from group chats and texts that are not a bare six-digit code are ignored (no reply).
 * 2. A phone no app asked to verify is ignored too: the service does not answer strangers.
 * 3. The code of a matchable challenge (pending, before expiry, fewer than 5 wrong texts)
 *    verifies it. Codes are unique among a phone's live challenges, so at most one matches.
 * 4. The code of another of the phone's challenges answers for that one: expired (late),
 *    already verified, already consumed, or pending after 5 wrong texts (no longer matches).
 * 5. Any other code is wrong: it counts against every matchable challenge of the phone, since a
 *    guess is a guess at each of them.
 */
export function judgeText(incoming: IncomingText, challenges: readonly ChallengeRow[], now: number): TextJudgement {
  const ignored = (explanation: string): TextJudgement => ({
    outcome: "ignored",
    challenge: undefined,
    counted: [],
    explanation,
  });
  if (incoming.group)
    return ignored("Texts from group chats are ignored: the code must come from the phone in a one-to-one text");
  const code = bareCodeOf(incoming.text);
  if (code === undefined) return ignored("Only a bare six-digit code is read: texts with other words are ignored");
  if (challenges.length === 0) return ignored("No app has asked to verify this phone: texts from it are ignored");

  const matching = challenges.find((row) => row.code === code && isMatchable(row, now));
  if (matching)
    return {
      outcome: "verified",
      challenge: matching,
      counted: [],
      explanation: "The code matches a pending challenge of this phone: it is verified",
    };

  const same = challenges.find((row) => row.code === code);
  if (same) {
    const status = statusAt(same, now);
    const about = (outcome: TextOutcome, explanation: string): TextJudgement => ({
      outcome,
      challenge: same,
      counted: [],
      explanation,
    });
    switch (status) {
      case "expired":
        return about(
          "expired",
          `The code is right but arrived late: its challenge expired at ${isoTime(same.expires_at)}`,
        );
      case "verified":
        return about("already_verified", "The code's challenge is already verified: nothing changes");
      case "consumed":
        return about("already_consumed", "The code's challenge was already consumed: nothing changes");
      case "pending":
        return about(
          "locked",
          `The code's challenge had ${MAX_WRONG_TEXTS} wrong texts: it no longer matches, even with its code`,
        );
    }
  }

  const counted = challenges.filter((row) => isMatchable(row, now));
  const explanation =
    counted.length === 0
      ? "The code matches none of this phone's challenges, and none of them can still be verified"
      : `The code matches none of this phone's challenges: a wrong text for ${counted.length === 1 ? "its pending challenge" : `each of its ${counted.length} pending challenges`}`;
  return { outcome: "wrong_code", challenge: counted[0] ?? challenges[0], counted, explanation };
}
