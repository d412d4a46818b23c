import type { ChalkInstance } from "chalk";
import type {
  ChallengeResource,
  ChallengeStatus,
  CreatedChallenge,
  OtpText,
  OtpTextResult,
} from "../../contract/index.js";
import { details } from "../output.js";

/** A challenge status, coloured by how it went. */
export function challengeStatusText(color: ChalkInstance, status: ChallengeStatus): string {
  if (status === "consumed" || status === "verified") return color.green(status);
  if (status === "expired") return color.red(status);
  return color.yellow(status);
}

/** Key/value lines for a challenge (GET /v1/challenges/:id). */
export function challengeDetails(color: ChalkInstance, c: ChallengeResource): string[] {
  return details(color, [
    ["id", c.id],
    ["status", challengeStatusText(color, c.status)],
    ["phone", c.phone],
    ["created", c.created_at],
    ["expires", c.expires_at],
    ["verified", c.verified_at],
    ["consumed", c.consumed_at],
  ]);
}

/** Key/value lines for a new challenge: its code and what the app shows the user. */
export function createdDetails(color: ChalkInstance, c: CreatedChallenge): string[] {
  return details(color, [
    ["id", c.id],
    ["code", color.bold(c.code)],
    ["phone", c.phone],
    ["expires", c.expires_at],
    ["text to", `${c.send_to.display} (${c.send_to.number})`],
    ["sms link", c.send_to.sms_link],
    ["whatsapp", c.whatsapp ? `${c.whatsapp.display} ${c.whatsapp.link}` : null],
  ]);
}

const CHANNEL_NAMES = { imessage: "iMessage", sms: "SMS", whatsapp: "WhatsApp" } as const;

/** One text as a line of a conversation on the user's phone. */
function textLine(color: ChalkInstance, text: OtpText): string {
  const time = color.dim(text.created_at.slice(11, 23));
  if (text.direction === "outbound") return `${time}  ${color.cyan("OTP  ")}  ${text.text}`;
  const group = text.members ? color.dim(` (group with ${text.members.join(", ")})`) : "";
  const outcome = text.outcome ? color.dim(`  [${text.outcome.replace(/_/g, " ")}]`) : "";
  return `${time}  ${color.bold("phone")}  ${text.text}${group}${outcome}`;
}

/** The user's text and the reply they got, as `otp text` shows them. */
export function textResultLines(color: ChalkInstance, result: OtpTextResult): string[] {
  const { text, reply } = result;
  const lines = [
    color.dim(`${text.phone} texted ${text.otp_number} over ${CHANNEL_NAMES[text.channel]}:`),
    textLine(color, text),
  ];
  lines.push(reply ? textLine(color, reply) : color.dim(`No reply: ${result.explanation}.`));
  if (reply) lines.push(color.dim(`${result.explanation}.`));
  if (result.challenge)
    lines.push(`Challenge ${result.challenge.id} is ${challengeStatusText(color, result.challenge.status)}.`);
  return lines;
}

/** The OTP numbers' threads with one phone, oldest text first, one block per OTP number. */
export function threadLines(color: ChalkInstance, texts: OtpText[]): string[] {
  if (texts.length === 0) return [color.dim("(no texts)")];
  const byNumber = new Map<string, OtpText[]>();
  for (const text of texts) byNumber.set(text.otp_number, [...(byNumber.get(text.otp_number) ?? []), text]);
  return [...byNumber].flatMap(([number, thread], i) => [
    ...(i > 0 ? [""] : []),
    color.dim(`${thread[0]?.phone} with ${number}`),
    ...thread.map((text) => textLine(color, text)),
  ]);
}
