import type { JsonObject } from "../../contract/common.js";
import { createChatBody, type ChatResource } from "../../contract/chats.js";
import { AppError, invalidRequest, invalidState } from "../../lib/app-error.js";
import { clip } from "../../lib/bounded-input.js";
import { requireHandle } from "../../lib/handle-input.js";
import { normalizePhone } from "../../lib/handles.js";
import { parseInput } from "../../lib/validation.js";
import { findAccountConversation } from "../../store/conversations/index.js";
import { findIdempotentResource, saveIdempotencyKey } from "../../store/core/index.js";
import { nextListTime, type DomainContext } from "../core/index.js";
import {
  contactProfile,
  GROUP_NAMING_FAILS,
  numberByHandle,
  numberStatus,
  type AccountNumber,
} from "../world/index.js";
import { toChat } from "./chats.js";
import { accountNumbersAmong, conversationOfNumber, createGroup } from "./groups.js";

const ENDPOINT = "POST /v1/chats";

/** The answer of a create: the group's Chat, and whether it was an idempotent replay (200, not 201). */
export interface CreateGroupResult {
  chat: ChatResource;
  replayed: boolean;
}

/** The account's number that starts the group: it must serve iMessage (a WhatsApp number: 400 invalid_from_handle, spec 4.5). */
function creatorNumber(ctx: DomainContext, accountId: string, input: string): AccountNumber {
  const phone = normalizePhone(input);
  const number = phone ? numberByHandle(ctx, phone) : undefined;
  if (!number || number.accountId !== accountId) {
    throw new AppError("invalid_from_handle", 400, `from_handle: ${clip(input)} is not one of this account's numbers`);
  }
  if (!number.channels.includes("imessage")) {
    const what = number.channels.includes("whatsapp") ? "a WhatsApp number" : "an SMS-only number";
    throw new AppError(
      "invalid_from_handle",
      400,
      `from_handle: ${number.handle} is ${what}; only iMessage groups can be created, from a number that serves iMessage`,
    );
  }
  return number;
}

/** True when a handle can be in an iMessage group: a contact on iMessage, or one of the account's numbers that serves it. */
function onIMessage(ctx: DomainContext, accountId: string, handle: string): boolean {
  const number = numberByHandle(ctx, handle);
  if (number && number.accountId === accountId) return number.channels.includes("imessage");
  return contactProfile(ctx, handle).imessage;
}

/** The members besides the creator: valid handles, each once, all on iMessage. */
function addressesOf(
  ctx: DomainContext,
  accountId: string,
  creator: AccountNumber,
  inputs: readonly string[],
): string[] {
  const addresses = inputs.map((input, i) => requireHandle(input, `addresses.${i}`));
  const seen = new Set<string>();
  addresses.forEach((handle, i) => {
    if (handle === creator.handle)
      throw invalidRequest(`addresses.${i}: ${handle} is from_handle itself; list the other members`);
    if (seen.has(handle)) throw invalidRequest(`addresses.${i}: ${handle} is listed twice`);
    seen.add(handle);
  });
  addresses.forEach((handle, i) => {
    if (!onIMessage(ctx, accountId, handle)) {
      throw invalidRequest(
        `addresses.${i}: ${handle} is not registered with iMessage; only iMessage groups can be created (with it, the group would be a group MMS thread)`,
      );
    }
  });
  return addresses;
}

/**
 * POST /v1/chats (spec 4.5): starts an iMessage group with an opening message. Validates, then in
 * one transaction either replays the group an Idempotency-Key already created, or records the
 * group, its members and a conversation for each of the account's numbers in it. Naming is best
 * effort: with a member that makes naming fail (magic number +1 415 555 0176) the title stays
 * null. The opening message is delivered but not recorded: no message, no message events.
 * An unreachable address is a member like any other; messages never reach it.
 */
export function createGroupChat(
  ctx: DomainContext,
  accountId: string,
  input: JsonObject,
  key: string | undefined,
): CreateGroupResult {
  const body = parseInput(createChatBody, input);
  const creator = creatorNumber(ctx, accountId, body.from_handle);
  const addresses = addressesOf(ctx, accountId, creator, body.addresses);

  return ctx.db.transaction(() => {
    if (key !== undefined) {
      const original = findIdempotentResource(ctx.db, accountId, ENDPOINT, key);
      const row = original ? findAccountConversation(ctx.db, accountId, original) : undefined;
      if (row) return { chat: toChat(ctx, row), replayed: true };
    }
    // The group is made by sending its opening message: the number must reach the network.
    if (numberStatus(ctx, creator.handle) === "offline")
      throw invalidState(`${creator.handle} is offline; a group is created by sending its opening message`);
    const named = addresses.includes(GROUP_NAMING_FAILS) ? null : (body.title ?? null);
    const group = createGroup(ctx, accountId, "imessage", [creator.handle, ...addresses], named);
    // The opening message is not recorded, but it is the thread's newest activity: its time takes
    // a place in the account's message list, so last_message_at stays unique.
    const conversation = conversationOfNumber(ctx, group, creator.handle, nextListTime(ctx, "messages", accountId));
    for (const member of accountNumbersAmong(ctx, accountId, addresses)) {
      conversationOfNumber(ctx, group, member.handle, nextListTime(ctx, "messages", accountId));
    }
    if (key !== undefined)
      saveIdempotencyKey(ctx.db, {
        account_id: accountId,
        endpoint: ENDPOINT,
        key,
        created_at: ctx.clock.now(),
        resource_id: conversation.id,
      });
    return { chat: toChat(ctx, conversation, group), replayed: false };
  });
}
