import type { JsonObject } from "../../contract/common.js";
import { addParticipantBody, renameChatBody, type ChatResource } from "../../contract/chats.js";
import { AppError, invalidRequest, invalidState, notFound } from "../../lib/app-error.js";
import { clip } from "../../lib/bounded-input.js";
import { requireHandle } from "../../lib/handle-input.js";
import { parseHandle } from "../../lib/handles.js";
import { parseInput } from "../../lib/validation.js";
import {
  findAccountConversation,
  type ConversationRow,
  deleteGroupMember,
  insertGroupMember,
  setGroupTitle,
  touchGroup,
} from "../../store/conversations/index.js";
import { emitEvent, nextListTime, type DomainContext } from "../core/index.js";
import { contactProfile, numberByHandle, numberStatus } from "../world/index.js";
import { conversationForPath, toChat } from "./chats.js";
import { GROUP_KINDS, type GroupKind } from "./group-rules.js";
import { assertStillMember, conversationOfNumber, memberConversations, requireGroup, type Group } from "./groups.js";

/** Why a handle cannot be a member of a group of this kind, or undefined when it can. */
export function joinRefusal(
  ctx: DomainContext,
  accountId: string,
  kind: GroupKind,
  handle: string,
): string | undefined {
  const own = numberByHandle(ctx, handle);
  const number = own && own.accountId === accountId ? own : undefined;
  const channel = GROUP_KINDS[kind].channel;
  if (number)
    return number.channels.includes(channel)
      ? undefined
      : `${handle} is one of the account's numbers and does not serve ${channel}`;
  if (kind === "imessage")
    return contactProfile(ctx, handle).imessage
      ? undefined
      : `${handle} is not registered with iMessage: only iMessage users can be in an iMessage group`;
  if (handle.includes("@"))
    return `${handle} is an iMessage address: it cannot be in a ${kind === "mms" ? "group MMS thread" : "WhatsApp group"}`;
  if (kind === "whatsapp" && !contactProfile(ctx, handle).whatsapp) return `${handle} is not on WhatsApp`;
  return undefined;
}

/**
 * Sets a group's title. When it changed, each member conversation fires conversation.renamed
 * (`from`: who renamed it; absent in the renamer's own conversation). Returns false for the same title.
 */
export function renameGroup(ctx: DomainContext, group: Group, title: string | null, by: string): boolean {
  if (group.title === title) return false;
  setGroupTitle(ctx.db, group.id, title);
  touchGroup(ctx.db, group.id, ctx.clock.now());
  for (const conversation of memberConversations(ctx, group)) {
    const from = conversation.from_handle === by ? {} : { from: by };
    emitEvent(ctx, group.accountId, "conversation.renamed", { conversation_id: conversation.id, title, ...from });
  }
  return true;
}

/**
 * Adds a member (a member already in: nothing changes). One of the account's numbers gets its
 * own conversation of the group. 400 naming `field` for a handle that cannot join; 409 when full.
 */
export function addGroupMember(ctx: DomainContext, group: Group, handle: string, field: string): void {
  if (group.members.includes(handle)) return;
  const refusal = joinRefusal(ctx, group.accountId, group.kind, handle);
  if (refusal) throw invalidRequest(`${field}: ${refusal}`);
  const { maxMembers } = GROUP_KINDS[group.kind];
  if (group.members.length >= maxMembers)
    throw invalidState(`The group is full: it has ${maxMembers} members, the most a ${group.kind} group can have`);
  const at = ctx.clock.now();
  insertGroupMember(ctx.db, group.id, handle, at);
  touchGroup(ctx.db, group.id, at);
  const number = numberByHandle(ctx, handle);
  if (number?.accountId === group.accountId)
    conversationOfNumber(ctx, group, handle, nextListTime(ctx, "messages", group.accountId));
}

/**
 * Removes a member (the account's own number too: it leaves, and its conversation stays without
 * new messages). 409 when fewer members than the kind allows would remain.
 */
export function removeGroupMember(ctx: DomainContext, group: Group, handle: string): void {
  const { minMembers, name } = GROUP_KINDS[group.kind];
  if (group.members.length - 1 < minMembers) {
    throw invalidState(
      `${name} keeps at least ${minMembers} members; removing ${handle} would leave ${group.members.length - 1}`,
    );
  }
  deleteGroupMember(ctx.db, group.id, handle);
  touchGroup(ctx.db, group.id, ctx.clock.now());
}

/**
 * The group a rename or member change through the API acts on (spec 4.5): iMessage groups only.
 * One-to-one threads and WhatsApp groups: 409 not_a_group; group MMS threads: 409 invalid_state.
 * The change is a synchronous verdict of the network: the number must be a member and online.
 */
function changeableGroup(ctx: DomainContext, row: ConversationRow): Group {
  if (!row.is_group)
    throw new AppError(
      "not_a_group",
      409,
      "This is a one-to-one thread: only iMessage groups can be renamed or have members changed",
    );
  const group = requireGroup(ctx, row);
  const verdict = GROUP_KINDS[group.kind].apiChanges;
  if (verdict === "not_a_group")
    throw new AppError("not_a_group", 409, "WhatsApp groups cannot be renamed or have members changed through the API");
  if (verdict === "invalid_state")
    throw invalidState(
      "This is a group MMS thread (a member is not on iMessage): it cannot be renamed or have members changed",
    );
  assertStillMember(group, row);
  if (numberStatus(ctx, row.from_handle) === "offline")
    throw invalidState(`${row.from_handle} is offline; group changes need the network`);
  return group;
}

/** PATCH /v1/chats/:id (spec 4.5): renames an iMessage group; conversation.renamed when the title changes. */
export function renameChat(ctx: DomainContext, accountId: string, id: string, input: JsonObject): ChatResource {
  const row = conversationForPath(ctx, accountId, id);
  const body = parseInput(renameChatBody, input);
  return ctx.db.transaction(() => {
    renameGroup(ctx, changeableGroup(ctx, row), body.title, row.from_handle);
    return chatNow(ctx, row);
  });
}

/** POST /v1/chats/:id/participants (spec 4.5): adds a member to an iMessage group; 200 with the Chat. */
export function addChatParticipant(ctx: DomainContext, accountId: string, id: string, input: JsonObject): ChatResource {
  const row = conversationForPath(ctx, accountId, id);
  const body = parseInput(addParticipantBody, input);
  const handle = requireHandle(body.handle, "handle");
  return ctx.db.transaction(() => {
    addGroupMember(ctx, changeableGroup(ctx, row), handle, "handle");
    return chatNow(ctx, row);
  });
}

/** DELETE /v1/chats/:id/participants/:handle (spec 4.5): removes a member; 404 for a handle that is not one. */
export function removeChatParticipant(
  ctx: DomainContext,
  accountId: string,
  id: string,
  handleParam: string,
): ChatResource {
  const row = conversationForPath(ctx, accountId, id);
  return ctx.db.transaction(() => {
    const group = changeableGroup(ctx, row);
    // `14155550191` without its `+` is accepted, as in the faults path: a `+` is easy to lose in a URL.
    const raw = /^\d+$/.test(handleParam) ? `+${handleParam}` : handleParam;
    const handle = parseHandle(raw)?.value;
    if (!handle || !group.members.includes(handle))
      throw notFound(`Participant ${clip(handleParam)} of chat ${row.id}`);
    removeGroupMember(ctx, group, handle);
    return chatNow(ctx, row);
  });
}

/** The Chat of a conversation as it is after a change made in this transaction. */
export function chatNow(ctx: DomainContext, row: ConversationRow): ChatResource {
  return toChat(ctx, findAccountConversation(ctx.db, row.account_id, row.id) ?? row);
}
