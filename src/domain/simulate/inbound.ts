import { inboundBody } from "../../contract/world.js";
import { invalidRequest } from "../../lib/app-error.js";
import { clip } from "../../lib/bounded-input.js";
import { requireHandle } from "../../lib/handle-input.js";
import { normalizePhone } from "../../lib/handles.js";
import { timeOrderedUuid } from "../../lib/time-ordered-id.js";
import { parseInput } from "../../lib/validation.js";
import { markInbound } from "../../store/conversations.js";
import { insertMessage } from "../../store/messages.js";
import type { MessagesTable } from "../../store/schema.js";
import { attachInbound } from "../attachments/index.js";
import { serviceOf, threadForMessage } from "../conversations/index.js";
import { emitEvent, nextListTime, type DomainContext } from "../core/index.js";
import { freshRetryColumns, inboundChannel, receivedFields, toMessage, whatsappJid, type MessageResource } from "../messages/index.js";
import { isOtpNumber } from "../otp/index.js";
import { contactProfile, numberByHandle } from "../world/index.js";

/**
 * `simulate inbound` (SANDBOX.md section 6): a contact sends a one-to-one message (text and/or
 * uploaded attachments, which it claims) to one of the account's numbers. Creates the thread on first contact, records the sender in `metadata`
 * (`sender_handle`, or `sender_jid` on WhatsApp) and fires message.received. Such a message is
 * the "inbound message on record" that lets the account write to an Android contact.
 */
export function simulateInbound(ctx: DomainContext, accountId: string, input: unknown): MessageResource {
  if (input === undefined) throw invalidRequest('body: required, e.g. { "from": "+14155550191", "to": "+14155550101", "text": "hi" }');
  const body = parseInput(inboundBody, input);
  const attachmentIds = body.attachment_ids ?? [];
  if (body.text === undefined && attachmentIds.length === 0) throw invalidRequest("text: text or attachment_ids is required");
  if (new Set(attachmentIds.map((id) => id.toLowerCase())).size !== attachmentIds.length) throw invalidRequest("attachment_ids: lists an attachment twice");
  if (attachmentIds.length === 0 && (body.voice_memo || body.duration_seconds !== undefined)) {
    throw invalidRequest(`${body.voice_memo ? "voice_memo" : "duration_seconds"}: needs attachment_ids`);
  }
  const from = requireHandle(body.from, "from");
  const toHandle = normalizePhone(body.to);
  const number = toHandle ? numberByHandle(ctx, toHandle) : undefined;
  if (!number || number.accountId !== accountId) {
    // The OTP numbers are the OTP service's, on the other host: texts to them are judged there.
    if (toHandle && isOtpNumber(ctx, toHandle)) {
      throw invalidRequest(`to: ${toHandle} is the OTP service's number: text it with \`msgctl otp text\` (POST /sandbox/v1/otp/texts on the OTP host)`);
    }
    throw invalidRequest(`to: ${clip(body.to)} is not one of this account's numbers`);
  }
  const profile = contactProfile(ctx, from);
  const channel = body.channel ?? inboundChannel(number, profile);
  if (!number.channels.includes(channel)) throw invalidRequest(`channel: ${number.handle} does not serve ${channel}`);
  if (channel === "whatsapp" && from.includes("@")) throw invalidRequest("from: WhatsApp senders are phone numbers");
  if (channel === "whatsapp" && !profile.whatsapp) throw invalidRequest(`from: ${from} is not on WhatsApp (contacts set ${from} --whatsapp)`);
  if (channel === "imessage" && !profile.imessage) throw invalidRequest(`from: ${from} is not registered with iMessage (contacts set ${from} --imessage)`);
  if (channel === "sms" && from.includes("@")) throw invalidRequest("from: an email address cannot send SMS");

  return ctx.db.transaction(() => {
    const now = ctx.clock.now();
    const createdAt = nextListTime(ctx, "messages", accountId);
    const thread = threadForMessage(ctx, accountId, number.handle, from, serviceOf(channel), createdAt);
    markInbound(ctx.db, thread.id, channel, createdAt);
    const metadata = channel === "whatsapp" ? { sender_jid: whatsappJid(from) } : { sender_handle: from };
    const id = timeOrderedUuid(ctx.ids, createdAt);
    if (attachmentIds.length > 0) attachInbound(ctx, accountId, attachmentIds, id, { channel, voiceMemo: body.voice_memo, durationSeconds: body.duration_seconds });
    const row: MessagesTable = {
      id,
      account_id: accountId,
      conversation_id: thread.id,
      direction: "inbound",
      // An inbound message has arrived: it counts as delivered (reactions need that).
      status: "delivered",
      channel,
      number_handle: number.handle,
      remote_handle: from,
      requested_channel: null,
      text: body.text ?? null,
      effect: null,
      reply_to: null,
      error: null,
      metadata: JSON.stringify(metadata),
      has_attachments: attachmentIds.length > 0 ? 1 : 0,
      voice_memo: body.voice_memo ? 1 : 0,
      media_quality: "fit",
      ...freshRetryColumns(),
      next_attempt_at: null,
      generation: 0,
      sent_at: now,
      delivered_at: now,
      read_at: null,
      edited_at: null,
      created_at: createdAt,
      updated_at: createdAt,
    };
    insertMessage(ctx.db, row);
    emitEvent(ctx, accountId, "message.received", receivedFields(row));
    return toMessage(ctx, row);
  });
}
