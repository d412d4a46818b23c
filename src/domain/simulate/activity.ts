import {
  simulateEditBody as editBody,
  simulateReactionBody as reactionBody,
  simulateTypingBody as typingBody,
} from "../../contract/world.js";
import { invalidRequest, invalidState } from "../../lib/app-error.js";
import { clip } from "../../lib/bounded-input.js";
import { requireHandle } from "../../lib/handle-input.js";
import { normalizePhone } from "../../lib/handles.js";
import { parseInput } from "../../lib/validation.js";
import { isParticipant, listOneToOnes } from "../../store/conversations.js";
import { updateMessage } from "../../store/messages.js";
import { toChat, type ChatResource } from "../conversations/index.js";
import { emitEvent, type DomainContext } from "../core/index.js";
import { editedFields, messageForField, requireReaction, toMessage, type MessageResource } from "../messages/index.js";
import { contactProfile, numberByHandle } from "../world/index.js";

const required = (input: unknown, example: string) => {
  if (input === undefined) throw invalidRequest(`body: required, e.g. ${example}`);
  return input;
};

/**
 * `simulate reaction ID --from H --reaction R [--remove]` (the id in the body's `message_id`): a contact in the thread reacts to one of
 * the account's delivered messages; fires message.reaction (its message_id is the message reacted to).
 */
export function simulateReaction(ctx: DomainContext, accountId: string, input: unknown): MessageResource {
  const body = parseInput(reactionBody, required(input, '{ "message_id": "…", "from": "+14155550191", "reaction": "love" }'));
  requireReaction(body.reaction);
  const row = messageForField(ctx, accountId, body.message_id, "message_id");
  const from = requireHandle(body.from, "from");
  if (!isParticipant(ctx.db, row.conversation_id, from)) throw invalidRequest(`from: ${from} is not in this message's conversation`);
  if (row.direction !== "outbound") throw invalidState("Contacts react to the account's messages; this one is inbound");
  if (row.status !== "delivered" && row.status !== "read") throw invalidState(`Reactions need a delivered message; this one is ${row.status}`);
  if (row.channel === "sms") throw invalidState("Reactions are not supported on SMS");
  ctx.db.transaction(() => {
    emitEvent(ctx, accountId, "message.reaction", {
      message_id: row.id,
      conversation_id: row.conversation_id,
      reaction: body.reaction,
      removed: body.remove ?? false,
      from,
    });
  });
  return toMessage(ctx, row);
}

/** `simulate typing --from H --to N [--stop]`: fires conversation.typing in their thread (not SMS). */
export function simulateTyping(ctx: DomainContext, accountId: string, input: unknown): ChatResource {
  const body = parseInput(typingBody, required(input, '{ "from": "+14155550191", "to": "+14155550101" }'));
  const from = requireHandle(body.from, "from");
  const toHandle = normalizePhone(body.to);
  const number = toHandle ? numberByHandle(ctx, toHandle) : undefined;
  if (!number || number.accountId !== accountId) throw invalidRequest(`to: ${clip(body.to)} is not one of this account's numbers`);
  const [thread] = listOneToOnes(ctx.db, accountId, number.handle, from);
  if (!thread) throw invalidState(`No conversation between ${from} and ${number.handle} yet; typing shows in an existing thread`);
  const channel = thread.channel ?? (thread.service === "whatsapp" ? "whatsapp" : contactProfile(ctx, from).imessage ? "imessage" : "sms");
  if (channel === "sms") throw invalidState("Typing indicators do not exist on SMS threads");
  const typing = body.typing ?? true;
  ctx.db.transaction(() => {
    emitEvent(ctx, accountId, "conversation.typing", { conversation_id: thread.id, typing, from });
  });
  return toChat(thread);
}

/** `simulate edit ID --text T` (`message_id` in the body): the contact edits their own iMessage or WhatsApp message; fires message.edited. */
export function simulateEdit(ctx: DomainContext, accountId: string, input: unknown): MessageResource {
  const body = parseInput(editBody, required(input, '{ "message_id": "…", "text": "new text" }'));
  const row = messageForField(ctx, accountId, body.message_id, "message_id");
  if (row.direction !== "inbound") throw invalidState("Contacts edit their own (inbound) messages; use POST /v1/messages/:id/edit for the account's");
  if (row.channel !== "imessage" && row.channel !== "whatsapp") throw invalidState(`Messages sent by ${row.channel} cannot be edited`);
  const next = ctx.db.transaction(() => {
    const editedAt = ctx.clock.now();
    updateMessage(ctx.db, row.id, { text: body.text, edited_at: editedAt, updated_at: ctx.clock.now() });
    const edited = { ...row, text: body.text, edited_at: editedAt };
    emitEvent(ctx, accountId, "message.edited", editedFields(edited));
    return edited;
  });
  return toMessage(ctx, next);
}
