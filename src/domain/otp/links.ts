import type { CreatedChallenge } from "../../contract/otp.js";
import { displayPhone } from "../../lib/handles.js";
import type { OtpNumbers } from "./otp-numbers.js";

/**
 * The sandbox's `{whatsapp_link}` (spec section 2): WhatsApp's own click-to-chat base, so the link
 * opens WhatsApp with the code filled in, as the real service's does. The numbers are fictional,
 * so on a real phone the chat opens but nothing answers: the sandbox is texted with `otp text`.
 */
const WHATSAPP_LINK_BASE = "https://wa.me";

/** `send_to`: the OTP number and the `sms:` link with the code filled in, `+` unescaped. */
export function sendToOf(numbers: OtpNumbers, code: string): CreatedChallenge["send_to"] {
  return {
    number: numbers.number,
    display: displayPhone(numbers.number),
    sms_link: `sms:${numbers.number}?&body=${code}`,
  };
}

/** `whatsapp`: null when the fixture offers no WhatsApp OTP number. */
export function whatsappOf(numbers: OtpNumbers, code: string): CreatedChallenge["whatsapp"] {
  const number = numbers.whatsapp_number;
  if (!number) return null;
  return {
    number,
    display: displayPhone(number),
    link: `${WHATSAPP_LINK_BASE}/${number.replace(/^\+/, "")}?text=${code}`,
  };
}
