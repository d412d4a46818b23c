import { invalidRequest, invalidState } from "../../lib/app-error.js";
import {
  findConversationOfNumber,
  insertConversation,
  type ConversationRow,
  findGroup,
  insertGroup,
  listGroupConversations,
  listGroupMembers,
  type GroupRow,
} from "../../store/conversations/index.js";
import type { DomainContext } from "../core/index.js";
import { numberByHandle, type AccountNumber } from "../world/index.js";
import { GROUP_KINDS, type GroupKind } from "./group-rules.js";

/** A group chat with its members (contacts and the account's numbers), in joining order. */
export interface Group {
  id: string;
  accountId: string;
  kind: GroupKind;
  title: string | null;
  members: string[];
  createdAt: number;
  updatedAt: number;
}

const toGroup = (row: GroupRow, members: string[]): Group => ({
  id: row.id,
  accountId: row.account_id,
  kind: row.kind,
  title: row.title,
  members,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** A group by id, with its members. */
export function groupById(ctx: DomainContext, id: string): Group | undefined {
  const row = findGroup(ctx.db, id);
  return row ? toGroup(row, listGroupMembers(ctx.db, id)) : undefined;
}

/** The group a conversation belongs to; undefined for one-to-one threads. */
export function groupOf(ctx: DomainContext, conversation: Pick<ConversationRow, "group_id">): Group | undefined {
  return conversation.group_id === null ? undefined : groupById(ctx, conversation.group_id);
}

/** The group of a conversation known to be a group's. */
export function requireGroup(ctx: DomainContext, conversation: ConversationRow): Group {
  const group = groupOf(ctx, conversation);
  if (!group) throw new Error(`Conversation ${conversation.id} has no group`);
  return group;
}

/** Records a new group with its members (the first is whoever started it). */
export function createGroup(
  ctx: DomainContext,
  accountId: string,
  kind: GroupKind,
  members: readonly string[],
  title: string | null,
): Group {
  const at = ctx.clock.now();
  const row: GroupRow = { id: ctx.ids.uuid(), account_id: accountId, kind, title, created_at: at, updated_at: at };
  insertGroup(ctx.db, row, members);
  return toGroup(row, [...members]);
}

/** The account's numbers among handles (members of a group, in their order). */
export function accountNumbersAmong(
  ctx: DomainContext,
  accountId: string,
  handles: readonly string[],
): AccountNumber[] {
  return handles.flatMap((handle) => {
    const number = numberByHandle(ctx, handle);
    return number && number.accountId === accountId ? [number] : [];
  });
}

/**
 * A member number's conversation in a group: each of the account's numbers in a group has its own
 * (same thread, different from_handle; spec 4.5). Created on first need with `lastMessageAt`
 * (a unique time of the account's message list), else returned as it is.
 */
export function conversationOfNumber(
  ctx: DomainContext,
  group: Group,
  numberHandle: string,
  lastMessageAt: number,
): ConversationRow {
  const existing = findConversationOfNumber(ctx.db, group.id, numberHandle);
  if (existing) return existing;
  const row: ConversationRow = {
    id: ctx.ids.uuid(),
    account_id: group.accountId,
    from_handle: numberHandle,
    remote_handle: null,
    service: GROUP_KINDS[group.kind].service,
    is_group: 1,
    title: null,
    channel: null,
    inbound_at: null,
    last_message_at: lastMessageAt,
    created_at: lastMessageAt,
    updated_at: lastMessageAt,
    group_id: group.id,
    typing_until: null,
    last_read_at: null,
  };
  insertConversation(ctx.db, row, []);
  return row;
}

/** The conversations of the group's member numbers that are members now, oldest first. */
export function memberConversations(ctx: DomainContext, group: Group): ConversationRow[] {
  return listGroupConversations(ctx.db, group.id).filter((row) => group.members.includes(row.from_handle));
}

/** 409 unless the conversation's own number is still in the group (a contact may have removed it). */
export function assertStillMember(group: Group, conversation: ConversationRow): void {
  if (!group.members.includes(conversation.from_handle)) {
    throw invalidState(`${conversation.from_handle} is no longer a member of this group`);
  }
}

/** 400 naming `field` unless the handle is a member of the group. */
export function assertMember(group: Group, handle: string, field: string): void {
  if (!group.members.includes(handle)) throw invalidRequest(`${field}: ${handle} is not a member of this group`);
}
