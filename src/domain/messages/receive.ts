import type { Channel } from "../../contract/common.js";
import { timeOrderedUuid } from "../../lib/time-ordered-id.js";
import { markInbound, type ConversationRow } from "../../store/conversations/index.js";
import type { MessageRow } from "../../store/messages/index.js";
import { attachInbound, copyAttachments } from "../attachments/index.js";
import type { DomainContext } from "../core/index.js";
import { whatsappJid } from "./routing.js";
import { createMessage } from "./status-table.js";

/**
 * The media of an arriving message: uploads it claims (a contact's message, or the first copy of
 * a group message), or the attachments of the copy it repeats (another member number's copy).
 */
export type ArrivalMedia =
  | { claim: string[]; voiceMemo?: boolean; durationSeconds?: number }
  | { copyOf: string; voiceMemo: boolean };

/** A message arriving at one of the account's numbers, in a thread already moved to the top for it. */
export interface Arrival {
  conversation: ConversationRow;
  /** The individual sender: a contact, or another of the account's numbers in a group. */
  from: string;
  channel: Channel;
  text: string | null;
  /** Its created_at: the conversation's new last_message_at. */
  createdAt: number;
  /** Group messages: the group, and the id of the copy this one repeats (none for the first copy). */
  group?: { id: string; originId?: string };
  media?: ArrivalMedia;
}

/**
 * Records an inbound message and fires message.received. The sender is in
 * `metadata` (`sender_handle`, or `sender_jid` on WhatsApp); a one-to-one message is the
 * contact's "inbound message on record" of the Android rule. Each of the account's numbers in a
 * group records its own copy: one message.received per member number (spec 4.5).
 */
export function recordInbound(ctx: DomainContext, arrival: Arrival): MessageRow {
  const { conversation, from, channel, createdAt, group, media } = arrival;
  markInbound(ctx.db, conversation.id, channel, createdAt);
  const metadata = channel === "whatsapp" ? { sender_jid: whatsappJid(from) } : { sender_handle: from };
  const id = timeOrderedUuid(ctx.ids, createdAt);
  if (media && "claim" in media) {
    attachInbound(ctx, conversation.account_id, media.claim, id, {
      channel,
      voiceMemo: media.voiceMemo,
      durationSeconds: media.durationSeconds,
    });
  } else if (media) {
    copyAttachments(ctx, conversation.account_id, media.copyOf, id, channel);
  }
  return createMessage(
    ctx,
    "received",
    {
      id,
      account_id: conversation.account_id,
      conversation_id: conversation.id,
      channel,
      number_handle: conversation.from_handle,
      remote_handle: from,
      requested_channel: null,
      text: arrival.text,
      effect: null,
      reply_to: null,
      metadata: JSON.stringify(metadata),
      has_attachments: media ? 1 : 0,
      voice_memo: media?.voiceMemo ? 1 : 0,
      media_quality: "fit",
      // The list's time, which may run a millisecond or more ahead of the clock when several
      // arrive in one instant: sent_at and delivered_at equal it (spec-decisions, Messages).
      created_at: createdAt,
    },
    group,
  );
}
