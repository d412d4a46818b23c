import type { JsonObject } from "../../contract/common.js";
import {
  simulateEditBody as editBody,
  simulateReactionBody as reactionBody,
  simulateTypingBody as typingBody,
} from "../../contract/world.js";
import { invalidRequest, invalidState } from "../../lib/app-error.js";
import { requireHandle } from "../../lib/handle-input.js";
import { parseInput } from "../../lib/validation.js";
import { isParticipant, listOneToOnes, type ConversationRow } from "../../store/conversations/index.js";
import { updateMessage } from "../../store/messages/index.js";
import {
  assertMember,
  conversationForField,
  memberConversations,
  requireGroup,
  threadChannel,
  toChat,
  type ChatResource,
  type Group,
} from "../conversations/index.js";
import { emitEvent, type DomainContext } from "../core/index.js";
import {
  editedFields,
  groupOfMessage,
  messageForField,
  otherCopies,
  requireReaction,
  toMessage,
  type MessageResource,
} from "../messages/index.js";
import { numberByHandle } from "../world/index.js";
import { accountNumberOf } from "./account-number.js";

/**
 * `simulate reaction ID --from H --reaction R [--remove]` (the id in the body's `message_id`): a
 * member of the thread reacts to one of the account's delivered messages; fires message.reaction
 * (its message_id is the message reacted to), once per conversation that holds a copy (spec 4.5).
 */
export function simulateReaction(ctx: DomainContext, accountId: string, input: JsonObject): MessageResource {
  const body = parseInput(reactionBody, input);
  requireReaction(body.reaction);
  const row = messageForField(ctx, accountId, body.message_id, "message_id");
  const from = requireHandle(body.from, "from");
  const group = groupOfMessage(ctx, row);
  const inThread = group ? group.members.includes(from) : isParticipant(ctx.db, row.conversation_id, from);
  if (!inThread) throw invalidRequest(`from: ${from} is not in this message's conversation`);
  if (row.direction !== "outbound") throw invalidState("Contacts react to the account's messages; this one is inbound");
  if (row.status !== "delivered" && row.status !== "read")
    throw invalidState(`Reactions need a delivered message; this one is ${row.status}`);
  if (row.channel === "sms") throw invalidState("Reactions are not supported on SMS");
  ctx.db.transaction(() => {
    for (const copy of [row, ...otherCopies(ctx, row)]) {
      emitEvent(ctx, accountId, "message.reaction", {
        message_id: copy.id,
        conversation_id: copy.conversation_id,
        reaction: body.reaction,
        removed: body.remove ?? false,
        from,
      });
    }
  });
  return toMessage(ctx, row);
}

/** The thread a contact types in: the one-to-one thread with `to`, or `conversation_id` (a group's too). */
function typingThread(
  ctx: DomainContext,
  accountId: string,
  from: string,
  body: { to?: string; conversation_id?: string },
): { row: ConversationRow; group?: Group } {
  if (body.conversation_id !== undefined) {
    if (body.to !== undefined)
      throw invalidRequest("conversation_id: give to (a one-to-one thread) or conversation_id, not both");
    const row = conversationForField(ctx, accountId, body.conversation_id, "conversation_id");
    if (!row.is_group) {
      if (row.remote_handle !== from) throw invalidRequest(`from: ${from} is not in this conversation`);
      return { row };
    }
    const group = requireGroup(ctx, row);
    assertMember(group, from, "from");
    if (numberByHandle(ctx, from)?.accountId === accountId)
      throw invalidRequest(`from: ${from} is one of the account's numbers; it types with POST /v1/chats/:id/typing`);
    return { row, group };
  }
  const number = accountNumberOf(ctx, accountId, body.to, "conversation_id");
  const [row] = listOneToOnes(ctx.db, accountId, number.handle, from);
  if (!row)
    throw invalidState(`No conversation between ${from} and ${number.handle} yet; typing shows in an existing thread`);
  return { row };
}

/**
 * `simulate typing --from H --to N | --group ID [--stop]`: fires conversation.typing in the thread
 * (not SMS); in a group, once in each member number's conversation.
 */
export function simulateTyping(ctx: DomainContext, accountId: string, input: JsonObject): ChatResource {
  const body = parseInput(typingBody, input);
  const from = requireHandle(body.from, "from");
  const { row, group } = typingThread(ctx, accountId, from, body);
  if (threadChannel(ctx, row, group) === "sms")
    throw invalidState(`Typing indicators do not exist on ${group ? "group MMS" : "SMS"} threads`);
  const typing = body.typing ?? true;
  ctx.db.transaction(() => {
    for (const conversation of group ? memberConversations(ctx, group) : [row]) {
      emitEvent(ctx, accountId, "conversation.typing", { conversation_id: conversation.id, typing, from });
    }
  });
  return toChat(ctx, row, group);
}

/**
 * `simulate edit ID --text T` (`message_id` in the body): the contact edits their own iMessage or
 * WhatsApp message; fires message.edited, once per conversation that holds a copy (spec 4.5).
 */
export function simulateEdit(ctx: DomainContext, accountId: string, input: JsonObject): MessageResource {
  const body = parseInput(editBody, input);
  const row = messageForField(ctx, accountId, body.message_id, "message_id");
  if (row.direction !== "inbound")
    throw invalidState("Contacts edit their own (inbound) messages; use POST /v1/messages/:id/edit for the account's");
  if (row.channel !== "imessage" && row.channel !== "whatsapp")
    throw invalidState(`Messages sent by ${row.channel} cannot be edited`);
  if (numberByHandle(ctx, row.remote_handle)?.accountId === accountId) {
    throw invalidState(
      `${row.remote_handle} is one of the account's numbers: edit its message with POST /v1/messages/:id/edit`,
    );
  }
  const next = ctx.db.transaction(() => {
    let edited = row;
    for (const copy of [row, ...otherCopies(ctx, row)]) {
      const editedAt = ctx.clock.now();
      updateMessage(ctx.db, copy.id, { text: body.text, edited_at: editedAt, updated_at: ctx.clock.now() });
      emitEvent(ctx, accountId, "message.edited", editedFields({ ...copy, text: body.text, edited_at: editedAt }));
      if (copy.id === row.id) edited = { ...row, text: body.text, edited_at: editedAt };
    }
    return edited;
  });
  return toMessage(ctx, next);
}
