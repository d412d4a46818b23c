import type { Channel } from "../../contract/common.js";
import type { MessageResource } from "../../contract/messages.js";
import type { MessageStatus } from "../../contract/statuses.js";
import { isoTime, isoTimeFrom, isoTimeOrNull } from "../../lib/clock.js";
import { findGroupMessage, listReceipts, type MessageRow, type MessageViewRow } from "../../store/messages/index.js";
import { listMessageAttachments } from "../attachments/index.js";
import type { DomainContext, EventFields } from "../core/index.js";

export type { MessageResource, MessageStatus };

/**
 * A message row as the API shows it; an outbound group message adds its members' receipts.
 * `inGroup` says whether it is a group message when the caller already knows (a page's SQL asks).
 */
export function toMessage(ctx: DomainContext, row: MessageViewRow, inGroup?: boolean): MessageResource {
  const message: MessageResource = {
    id: row.id,
    conversation_id: row.conversation_id,
    direction: row.direction,
    status: row.status,
    channel: row.channel,
    text: row.text,
    effect: row.effect,
    reply_to: row.reply_to,
    error: row.error,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    attachments: row.has_attachments ? listMessageAttachments(ctx, row.id) : [],
    ...lifecycleTimes(row),
    edited_at: isoTimeFrom(row.edited_at, row.created_at),
    created_at: isoTime(row.created_at),
  };
  if (row.direction === "outbound" && (inGroup ?? findGroupMessage(ctx.db, row.id) !== undefined)) {
    message.recipients = listReceipts(ctx.db, row.id).map((receipt) => ({
      handle: receipt.handle,
      delivered_at: isoTimeFrom(receipt.delivered_at, row.created_at),
      read_at: isoTimeFrom(receipt.read_at, Math.max(row.created_at, receipt.delivered_at ?? 0)),
    }));
  }
  return message;
}

/** The outbound lifecycle events. */
export type LifecycleEvent = "message.sent" | "message.delivered" | "message.read" | "message.failed";

/** The payload fields every lifecycle event shares. */
export type LifecycleFields = EventFields<LifecycleEvent>;

/**
 * The payload fields of an outbound lifecycle event (message.sent/delivered/read/failed):
 * `message_id` for dedupe, the thread, the state reached, and the timestamps so far. A group
 * message has no single recipient: `is_group: true` instead of `to` (the group is the conversation).
 */
export function lifecycleFields(row: MessageRow, isGroup = false): LifecycleFields {
  const fields: LifecycleFields = {
    message_id: row.id,
    conversation_id: row.conversation_id,
    status: row.status,
    channel: row.channel,
    from: row.number_handle,
  };
  if (isGroup) fields.is_group = true;
  else fields.to = row.remote_handle;
  if (row.status === "failed") fields.error = row.error;
  const times = lifecycleTimes(row);
  if (times.sent_at !== null) fields.sent_at = times.sent_at;
  if (times.delivered_at !== null) fields.delivered_at = times.delivered_at;
  if (times.read_at !== null) fields.read_at = times.read_at;
  return fields;
}

/** The payload of message.received (spec section 6); group messages add `is_group: true`. */
export function receivedFields(row: MessageRow, isGroup = false): EventFields<"message.received"> {
  const fields: EventFields<"message.received"> = {
    conversation_id: row.conversation_id,
    message_id: row.id,
    from: row.remote_handle,
    to: row.number_handle,
    text: row.text,
    // An inbound row is written with the channel it arrived on.
    channel: row.channel as Channel,
    has_attachments: row.has_attachments === 1,
    created_at: isoTime(row.created_at),
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
  };
  if (isGroup) fields.is_group = true;
  return fields;
}

/** The payload of message.edited (spec section 6). */
export function editedFields(row: MessageRow): EventFields<"message.edited"> {
  return {
    conversation_id: row.conversation_id,
    message_id: row.id,
    text: row.text,
    edited_at: isoTimeFrom(row.edited_at, row.created_at),
  };
}

/** Sent, delivered and read, each shown no earlier than the one before it and `created_at`. */
function lifecycleTimes(row: Pick<MessageRow, "created_at" | "sent_at" | "delivered_at" | "read_at">) {
  const sent = row.sent_at === null ? null : Math.max(row.sent_at, row.created_at);
  const delivered = row.delivered_at === null ? null : Math.max(row.delivered_at, sent ?? row.created_at);
  return {
    sent_at: isoTimeOrNull(sent),
    delivered_at: isoTimeOrNull(delivered),
    read_at: isoTimeFrom(row.read_at, delivered ?? sent ?? row.created_at),
  };
}
