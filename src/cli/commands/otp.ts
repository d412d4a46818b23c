import type {
  ChallengeResource,
  ChallengeTextInput,
  CreatedChallenge,
  OtpFaults,
  OtpText,
  OtpTextResult,
} from "../../contract/index.js";
import { connect, type ConnectionFlags } from "../connection.js";
import type { Output } from "../output.js";
import { UsageError } from "../usage-error.js";
import { challengeDetails, challengeStatusText, createdDetails, textResultLines, threadLines } from "./otp-format.js";

/** `msgctl otp create --phone P`: POST /v1/challenges; prints the code and what the app shows. */
export async function otpCreate(options: ConnectionFlags & { phone: string }, out: Output): Promise<CreatedChallenge> {
  const created = await connect(options, "otp").otp.create(options.phone);
  out.result(created, (c) => [
    `Challenge ${c.id} is ${challengeStatusText(out.color, "pending")}: the user texts ${c.code} to ${c.send_to.display}`,
    ...createdDetails(out.color, c),
  ]);
  return created;
}

/** `msgctl otp get ID`: GET /v1/challenges/:id. */
export async function otpGet(id: string, options: ConnectionFlags, out: Output): Promise<ChallengeResource> {
  const challenge = await connect(options, "otp").otp.get(id);
  out.result(challenge, (c) => challengeDetails(out.color, c));
  return challenge;
}

/** `msgctl otp consume ID`: POST /v1/challenges/:id/consume (exit 1 with 409/410 when refused). */
export async function otpConsume(id: string, options: ConnectionFlags, out: Output): Promise<ChallengeResource> {
  const challenge = await connect(options, "otp").otp.consume(id);
  out.result(challenge, (c) => [out.color.green("Consumed: sign-in is complete"), ...challengeDetails(out.color, c)]);
  return challenge;
}

/** Options of `msgctl otp text`. */
export interface OtpTextOptions extends ConnectionFlags {
  code?: string;
  wrong?: boolean;
  text?: string;
  from?: string;
  channel?: "imessage" | "sms" | "whatsapp";
  members?: string;
  outcome?: boolean;
}

/** What `otp text --outcome --json` prints: the challenge, what the text did and the reply's words. */
interface OtpTextOutcome {
  challenge: OtpTextResult["challenge"];
  outcome: OtpTextResult["outcome"];
  reply: string | null;
  explanation: string;
}

/**
 * `msgctl otp text ID [--code C | --wrong | --text T] [--from P] [--channel C] [--members H,H]`:
 * the user texts the OTP number (by default the right code from the challenge's phone). Prints
 * the reply the user got; `--json` prints the challenge after the text was handled, and with
 * `--outcome` `{ challenge, outcome, reply, explanation }`, so a script can tell a wrong code from
 * an ignored text or a locked challenge.
 */
export async function otpText(id: string, options: OtpTextOptions, out: Output): Promise<OtpTextResult> {
  const chosen = (["code", "wrong", "text"] as const).filter(
    (name) => options[name] !== undefined && options[name] !== false,
  );
  if (chosen.length > 1)
    throw new UsageError(`Use one of --code, --wrong and --text (got ${chosen.map((name) => `--${name}`).join(", ")})`);
  const input: ChallengeTextInput = {
    code: options.code,
    wrong: options.wrong || undefined,
    text: options.text,
    from: options.from,
    channel: options.channel,
    members: options.members
      ?.split(",")
      .map((member) => member.trim())
      .filter(Boolean),
  };
  const result = await connect(options, "otp").otp.text(id, input);
  if (options.outcome) {
    const outcome: OtpTextOutcome = {
      challenge: result.challenge,
      outcome: result.outcome,
      reply: result.reply?.text ?? null,
      explanation: result.explanation,
    };
    out.result(outcome, () => textResultLines(out.color, result));
  } else out.result(result.challenge, () => textResultLines(out.color, result));
  return result;
}

/** `msgctl otp thread PHONE`: the OTP numbers' threads with a phone, oldest first, as the phone shows them. */
export async function otpThread(phone: string, options: ConnectionFlags, out: Output): Promise<OtpText[]> {
  const otp = connect(options, "otp").otp;
  const texts: OtpText[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await otp.texts({ phone, limit: 100, before });
    texts.push(...page.data);
    if (!page.hasMore || page.data.length === 0) break;
    before = page.data.at(-1)?.created_at;
  }
  texts.reverse();
  out.result(texts, (list) => threadLines(out.color, list));
  return texts;
}

/** `msgctl simulate otp-fault unavailable [--off]`: the OTP host's `/v1` answers 503 until switched off. */
export async function otpFault(
  fault: "unavailable",
  options: ConnectionFlags & { off?: boolean },
  out: Output,
): Promise<OtpFaults> {
  const faults = await connect(options, "otp").otp.fault(fault, { off: options.off });
  out.result(faults, (f) =>
    f.unavailable
      ? `The OTP host's /v1 now answers 503 unavailable (${out.color.cyan("msgctl simulate otp-fault unavailable --off")} ends it)`
      : "The OTP host's /v1 is available again",
  );
  return faults;
}
