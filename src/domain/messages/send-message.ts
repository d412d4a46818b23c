import type { JsonObject } from "../../contract/common.js";
import { sendMessageBody as sendBody, type SendMessageBody } from "../../contract/messages.js";
import { AppError, invalidRequest } from "../../lib/app-error.js";
import { clip } from "../../lib/bounded-input.js";
import { requireHandle } from "../../lib/handle-input.js";
import { parseHandleMemo } from "../../lib/handle-memo.js";
import { timeOrderedUuid } from "../../lib/time-ordered-id.js";
import { parseInput } from "../../lib/validation.js";
import type { ConversationRow } from "../../store/conversations/index.js";
import { findIdempotentResource, saveIdempotencyKey } from "../../store/core/index.js";
import { findAccountMessage } from "../../store/messages/index.js";
import { claimAttachments } from "../attachments/index.js";
import {
  assertStillMember,
  conversationForField,
  GROUP_KINDS,
  requireGroup,
  serviceOf,
  threadForMessage,
  touchThread,
  type Group,
  type Service,
} from "../conversations/index.js";
import { nextListTime, type DomainContext } from "../core/index.js";
import { numberByHandle, type AccountNumber } from "../world/index.js";
import { assertSendable, whatsappJid } from "./routing.js";
import { createMessage } from "./status-table.js";
import { toMessage, type MessageResource } from "./views.js";

const ENDPOINT = "POST /v1/messages";

/** The answer of a send: the message, and whether it was an idempotent replay (200, not 202). */
export interface SendResult {
  message: MessageResource;
  replayed: boolean;
}

/** Where a send goes: the account's number, the contact, the thread service. */
interface Destination {
  number: AccountNumber;
  to: string;
  service: Service;
  /** `whatsapp` for WhatsApp threads and sends; null lets routing choose iMessage or SMS. */
  requested: "whatsapp" | null;
  /** A group send: the group and the number's conversation of it (`to` is then the group's id). */
  group?: { group: Group; conversation: ConversationRow };
}

/**
 * A send into a group (spec 4.5): over the group's channel, from the conversation's number while it
 * is a member (409 otherwise). WhatsApp Cloud API numbers do not support groups: 400 unsupported.
 */
function groupDestination(
  ctx: DomainContext,
  conversation: ConversationRow,
  requested: "whatsapp" | null,
): Destination {
  const group = requireGroup(ctx, conversation);
  const number = numberByHandle(ctx, conversation.from_handle);
  if (!number) throw invalidRequest("conversation_id: its number is no longer one of the account's numbers");
  const whatsapp = group.kind === "whatsapp";
  if (whatsapp && number.whatsappApi === "cloud") {
    throw new AppError(
      "unsupported",
      400,
      `conversation_id: ${number.handle} is on the WhatsApp Cloud API, which does not support groups`,
    );
  }
  if (requested === "whatsapp" && !whatsapp)
    throw invalidRequest("channel: this group is an iMessage/SMS group, not a WhatsApp one");
  assertStillMember(group, conversation);
  return {
    number,
    to: group.id,
    service: GROUP_KINDS[group.kind].service,
    requested: whatsapp ? "whatsapp" : null,
    group: { group, conversation },
  };
}

function destinationOf(ctx: DomainContext, accountId: string, body: SendMessageBody): Destination {
  const requested = body.channel ?? null;
  if (body.conversation_id != null) {
    if (body.to != null || body.from_handle != null) {
      throw invalidRequest("conversation_id: send either conversation_id, or to with from_handle, not both");
    }
    const thread = conversationForField(ctx, accountId, body.conversation_id, "conversation_id");
    if (thread.is_group || thread.remote_handle === null) return groupDestination(ctx, thread, requested);
    if (requested === "whatsapp" && thread.service !== "whatsapp") {
      throw invalidRequest("channel: this conversation is an iMessage/SMS thread; WhatsApp has its own thread");
    }
    const number = numberByHandle(ctx, thread.from_handle);
    if (!number) throw invalidRequest("conversation_id: its number is no longer one of the account's numbers");
    return {
      number,
      to: thread.remote_handle,
      service: thread.service,
      requested: thread.service === "whatsapp" ? "whatsapp" : null,
    };
  }
  if (body.to == null) throw invalidRequest("to: required (with from_handle) unless conversation_id is set");
  if (body.from_handle == null) throw invalidRequest("from_handle: required with to");
  const to = requireHandle(body.to, "to");
  const fromHandle = parseHandleMemo(body.from_handle);
  const number = fromHandle?.kind === "phone" ? numberByHandle(ctx, fromHandle.value) : undefined;
  if (!number || number.accountId !== accountId) {
    throw new AppError(
      "invalid_from_handle",
      400,
      `from_handle: ${clip(body.from_handle)} is not one of this account's numbers`,
    );
  }
  assertSendable(number, to, requested);
  return { number, to, service: serviceOf(requested), requested };
}

/**
 * POST /v1/messages (spec 4.3): validates, then in one transaction either
 * replays the message an Idempotency-Key already created (nothing is sent again) or creates the
 * message queued, with its thread and its first send attempt.
 */
export function sendMessage(
  ctx: DomainContext,
  accountId: string,
  input: JsonObject,
  key: string | undefined,
): SendResult {
  const body = parseInput(sendBody, input);
  const destination = destinationOf(ctx, accountId, body);
  const attachmentIds = body.attachment_ids ?? [];
  if (body.text == null && attachmentIds.length === 0) throw invalidRequest("text: text or attachment_ids is required");
  if (new Set(attachmentIds.map((id) => id.toLowerCase())).size !== attachmentIds.length)
    throw invalidRequest("attachment_ids: lists an attachment twice");
  if (body.voice_memo === true && attachmentIds.length === 0)
    throw invalidRequest("voice_memo: needs an audio attachment in attachment_ids");
  if (body.effect != null && destination.requested === "whatsapp")
    throw invalidRequest("effect: effects are iMessage only, not for channel whatsapp");

  return ctx.db.transaction(() => {
    if (key !== undefined) {
      const original = findIdempotentResource(ctx.db, accountId, ENDPOINT, key);
      const row = original ? findAccountMessage(ctx.db, accountId, original) : undefined;
      if (row) return { message: toMessage(ctx, row), replayed: true };
    }
    const createdAt = nextListTime(ctx, "messages", accountId);
    const { number, to } = destination;
    const thread = destination.group
      ? touchThread(ctx, destination.group.conversation, createdAt)
      : threadForMessage(ctx, accountId, number.handle, to, destination.service, createdAt);
    if (body.reply_to != null) {
      const target = findAccountMessage(ctx.db, accountId, body.reply_to.toLowerCase());
      if (!target) throw invalidRequest(`reply_to: no message ${body.reply_to} in this account`);
      if (target.conversation_id !== thread.id)
        throw invalidRequest("reply_to: that message is in another conversation");
    }
    const id = timeOrderedUuid(ctx.ids, createdAt);
    if (attachmentIds.length > 0)
      claimAttachments(ctx, accountId, attachmentIds, id, { voiceMemo: body.voice_memo === true });
    // MESSAGE_TRANSITIONS.accepted: queued, channel null, first attempt after the send latency.
    const row = createMessage(
      ctx,
      "accepted",
      {
        id,
        account_id: accountId,
        conversation_id: thread.id,
        channel: null,
        number_handle: number.handle,
        remote_handle: to,
        requested_channel: destination.requested,
        text: body.text ?? null,
        effect: body.effect ?? null,
        reply_to: body.reply_to?.toLowerCase() ?? null,
        // Group messages name their sender, as received ones do (spec section 2).
        metadata: destination.group
          ? JSON.stringify(
              destination.requested === "whatsapp"
                ? { sender_jid: whatsappJid(number.handle) }
                : { sender_handle: number.handle },
            )
          : null,
        has_attachments: attachmentIds.length > 0 ? 1 : 0,
        voice_memo: body.voice_memo ? 1 : 0,
        media_quality: body.media_quality ?? "fit",
        created_at: createdAt,
      },
      destination.group && { id: destination.group.group.id },
    );
    if (key !== undefined)
      saveIdempotencyKey(ctx.db, {
        account_id: accountId,
        endpoint: ENDPOINT,
        key,
        created_at: createdAt,
        resource_id: id,
      });
    // A new message: whether it is a group message is known here, not read back.
    return { message: toMessage(ctx, row, destination.group !== undefined), replayed: false };
  });
}
