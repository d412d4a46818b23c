import { z } from "zod";
import { invalidRequest } from "../lib/app-error.js";
import { clip } from "../lib/bounded-input.js";
import { normalizePhone } from "../lib/handles.js";
import { timeOrderedUuid } from "../lib/time-ordered-id.js";
import { parseInput } from "../lib/validation.js";
import { markInbound } from "../store/conversations.js";
import { insertMessage } from "../store/messages.js";
import type { MessagesTable } from "../store/schema.js";
import { contactProfile } from "./contacts.js";
import type { DomainContext } from "./context.js";
import { threadForMessage } from "./conversations.js";
import { emitEvent } from "./events.js";
import { RETRY_POLICY } from "./message-retry-policy.js";
import { inboundChannel, requireHandle, serviceOf, whatsappJid } from "./message-routing.js";
import { receivedFields, toMessage, type MessageResource } from "./message-view.js";
import { numberByHandle } from "./numbers.js";

const inboundBody = z.strictObject({
  from: z.string(),
  to: z.string(),
  text: z.string().min(1, "must not be empty").max(20_000),
  channel: z.enum(["imessage", "sms", "whatsapp"]).optional(),
});

/**
 * `simulate inbound` (SANDBOX.md section 6): a contact sends a one-to-one text to one of the
 * account's numbers. Creates the thread on first contact, records the sender in `metadata`
 * (`sender_handle`, or `sender_jid` on WhatsApp) and fires message.received. Such a message is
 * the "inbound message on record" that lets the account write to an Android contact.
 */
export function simulateInbound(ctx: DomainContext, accountId: string, input: unknown): MessageResource {
  if (input === undefined) throw invalidRequest('body: required, e.g. { "from": "+14155550191", "to": "+14155550101", "text": "hi" }');
  const body = parseInput(inboundBody, input);
  const from = requireHandle(body.from, "from");
  const toHandle = normalizePhone(body.to);
  const number = toHandle ? numberByHandle(ctx, toHandle) : undefined;
  if (!number || number.accountId !== accountId) throw invalidRequest(`to: ${clip(body.to)} is not one of this account's numbers`);
  const profile = contactProfile(ctx, from);
  const channel = body.channel ?? inboundChannel(number, profile);
  if (!number.channels.includes(channel)) throw invalidRequest(`channel: ${number.handle} does not serve ${channel}`);
  if (channel === "whatsapp" && from.includes("@")) throw invalidRequest("from: WhatsApp senders are phone numbers");
  if (channel === "whatsapp" && !profile.whatsapp) throw invalidRequest(`from: ${from} is not on WhatsApp (contacts set ${from} --whatsapp)`);
  if (channel === "imessage" && !profile.imessage) throw invalidRequest(`from: ${from} is not registered with iMessage (contacts set ${from} --imessage)`);
  if (channel === "sms" && from.includes("@")) throw invalidRequest("from: an email address cannot send SMS");

  return ctx.db.transaction(() => {
    const createdAt = ctx.recordTime();
    const thread = threadForMessage(ctx, accountId, number.handle, from, serviceOf(channel), createdAt);
    markInbound(ctx.db, thread.id, channel, createdAt);
    const metadata = channel === "whatsapp" ? { sender_jid: whatsappJid(from) } : { sender_handle: from };
    const row: MessagesTable = {
      id: timeOrderedUuid(ctx.ids, createdAt),
      account_id: accountId,
      conversation_id: thread.id,
      direction: "inbound",
      // An inbound message has arrived: it counts as delivered (reactions need that).
      status: "delivered",
      channel,
      number_handle: number.handle,
      remote_handle: from,
      requested_channel: null,
      text: body.text,
      effect: null,
      reply_to: null,
      error: null,
      metadata: JSON.stringify(metadata),
      has_attachments: 0,
      voice_memo: 0,
      media_quality: "fit",
      attempts: 0,
      first_attempt_at: null,
      backoff_ms: RETRY_POLICY.offline.initialBackoffMs,
      next_attempt_at: null,
      generation: 0,
      sent_at: createdAt,
      delivered_at: createdAt,
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
