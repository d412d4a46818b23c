import type { JsonObject } from "../../contract/common.js";
import { inboundBody } from "../../contract/world.js";
import { invalidRequest } from "../../lib/app-error.js";
import { requireHandle } from "../../lib/handle-input.js";
import { parseInput } from "../../lib/validation.js";
import { serviceOf, threadForMessage } from "../conversations/index.js";
import { nextListTime, type DomainContext } from "../core/index.js";
import {
  inboundChannel,
  recordInbound,
  toMessage,
  type ArrivalMedia,
  type MessageResource,
} from "../messages/index.js";
import { contactProfile } from "../world/index.js";
import { accountNumberOf } from "./account-number.js";
import { inboundToGroup, inboundToNewGroup } from "./group-inbound.js";

/**
 * `simulate inbound`: a contact writes to one of the account's numbers,
 * one-to-one, or into a group: a new one with `members`, an existing one with `group`. The
 * message carries text and/or uploaded attachments, which it claims. Creates the thread on first
 * contact, records the sender in `metadata` (`sender_handle`, or `sender_jid` on WhatsApp) and
 * fires message.received. A one-to-one message is the "inbound message on record" that lets the
 * account write to an Android contact.
 */
export function simulateInbound(ctx: DomainContext, accountId: string, input: JsonObject): MessageResource {
  const body = parseInput(inboundBody, input);
  const attachmentIds = body.attachment_ids ?? [];
  if (body.text === undefined && attachmentIds.length === 0)
    throw invalidRequest("text: text or attachment_ids is required");
  if (new Set(attachmentIds.map((id) => id.toLowerCase())).size !== attachmentIds.length)
    throw invalidRequest("attachment_ids: lists an attachment twice");
  if (attachmentIds.length === 0 && (body.voice_memo || body.duration_seconds !== undefined)) {
    throw invalidRequest(`${body.voice_memo ? "voice_memo" : "duration_seconds"}: needs attachment_ids`);
  }
  const media: ArrivalMedia | undefined =
    attachmentIds.length > 0
      ? { claim: attachmentIds, voiceMemo: body.voice_memo, durationSeconds: body.duration_seconds }
      : undefined;
  const from = requireHandle(body.from, "from");
  if (body.members !== undefined && body.group !== undefined)
    throw invalidRequest("group: give members (a new group) or group (an existing one), not both");
  if (body.group !== undefined) return inboundToGroup(ctx, accountId, from, body.group, { ...body, media });
  const number = accountNumberOf(ctx, accountId, body.to);
  if (body.members !== undefined)
    return inboundToNewGroup(ctx, accountId, from, number, body.members, { ...body, media });

  const profile = contactProfile(ctx, from);
  const channel = body.channel ?? inboundChannel(number, profile);
  if (!number.channels.includes(channel)) throw invalidRequest(`channel: ${number.handle} does not serve ${channel}`);
  if (channel === "whatsapp" && from.includes("@")) throw invalidRequest("from: WhatsApp senders are phone numbers");
  if (channel === "whatsapp" && !profile.whatsapp)
    throw invalidRequest(`from: ${from} is not on WhatsApp (contacts set ${from} --whatsapp)`);
  if (channel === "imessage" && !profile.imessage)
    throw invalidRequest(`from: ${from} is not registered with iMessage (contacts set ${from} --imessage)`);
  if (channel === "sms" && from.includes("@")) throw invalidRequest("from: an email address cannot send SMS");

  return ctx.db.transaction(() => {
    const createdAt = nextListTime(ctx, "messages", accountId);
    const conversation = threadForMessage(ctx, accountId, number.handle, from, serviceOf(channel), createdAt);
    return toMessage(
      ctx,
      recordInbound(ctx, { conversation, from, channel, text: body.text ?? null, createdAt, media }),
    );
  });
}
