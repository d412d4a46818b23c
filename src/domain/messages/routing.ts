import { availabilityQuery, type HandleAvailability } from "../../contract/messages.js";
import { parseInput } from "../../lib/validation.js";
import { invalidRequest } from "../../lib/app-error.js";
import { requireHandle } from "../../lib/handle-input.js";
import { hasInboundFrom } from "../../store/conversations/index.js";
import type { DomainContext } from "../core/index.js";
import { contactProfile, type AccountNumber, type Channel, type ContactProfile } from "../world/index.js";

export type { HandleAvailability };

/** The channel a send goes over, or the permanent error that stops it. */
export type Route = { channel: Channel } | { error: string };

/**
 * Checks at acceptance (400 invalid_request) that a number can carry a send at all: WhatsApp only
 * when asked for with `channel` and served by the number; iMessage/SMS only from a number that
 * serves them; an email handle only over iMessage.
 */
export function assertSendable(number: AccountNumber, to: string, requested: "whatsapp" | null): void {
  const serves = (channel: Channel) => number.channels.includes(channel);
  if (requested === "whatsapp") {
    if (!serves("whatsapp")) throw invalidRequest(`channel: ${number.handle} does not serve WhatsApp`);
    if (to.includes("@")) throw invalidRequest(`to: WhatsApp needs a phone number, not the email address ${to}`);
    return;
  }
  if (!serves("imessage") && !serves("sms")) {
    throw invalidRequest(`channel: ${number.handle} serves only WhatsApp; send with "channel": "whatsapp"`);
  }
  if (to.includes("@") && !serves("imessage")) {
    throw invalidRequest(`to: ${to} is an iMessage address and ${number.handle} does not serve iMessage`);
  }
}

/**
 * Picks the channel of an outbound message at its send attempt: WhatsApp
 * when asked for; otherwise iMessage when the contact is on it and the number serves it, else
 * SMS. Outbound-first to an Android contact is refused (spec section 1).
 */
export function routeOutbound(
  ctx: DomainContext,
  number: AccountNumber,
  profile: ContactProfile,
  requested: string | null,
): Route {
  let channel: Channel;
  if (requested === "whatsapp") {
    if (!profile.whatsapp) return { error: `${profile.handle} is not on WhatsApp` };
    channel = "whatsapp";
  } else if (profile.imessage && number.channels.includes("imessage")) {
    channel = "imessage";
  } else if (number.channels.includes("sms")) {
    channel = "sms";
  } else {
    return { error: `${profile.handle} is not registered with iMessage and ${number.handle} does not serve SMS` };
  }
  if (profile.platform === "android" && !hasInboundFrom(ctx.db, number.accountId, number.handle, profile.handle)) {
    return {
      error:
        `${profile.handle} is an Android phone that has never messaged ${number.handle}: ` +
        "the contact must message first (outbound-first sends to Android are unsupported)",
    };
  }
  return { channel };
}

/** The channel a contact's message to a number arrives on when the simulation does not say. */
export function inboundChannel(number: AccountNumber, profile: ContactProfile): Channel {
  if (profile.imessage && number.channels.includes("imessage")) return "imessage";
  if (number.channels.includes("sms")) return "sms";
  return number.channels.includes("whatsapp") ? "whatsapp" : "imessage";
}

/** A WhatsApp JID of a phone number, as WhatsApp names senders (`14155550191@s.whatsapp.net`). */
export const whatsappJid = (e164: string) => `${e164.replace(/^\+/, "")}@s.whatsapp.net`;

/** GET /v1/handles/availability (spec 4.3). */
export function handleAvailability(ctx: DomainContext, input: string | null): HandleAvailability {
  if (input === null || input.trim() === "")
    throw invalidRequest("handle: required (an E.164 phone number or iMessage email)");
  const query = parseInput(availabilityQuery, { handle: input }, "query");
  const handle = requireHandle(query.handle, "handle");
  const profile = contactProfile(ctx, handle);
  return { handle, imessage: profile.imessage, channel: profile.imessage ? "imessage" : "sms" };
}
