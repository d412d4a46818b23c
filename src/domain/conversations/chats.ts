import { listChatsQuery, type ChatResource } from "../../contract/chats.js";
import type { Channel } from "../../contract/common.js";
import { notFound } from "../../lib/app-error.js";
import { isoTime } from "../../lib/clock.js";
import { isUuid } from "../../lib/ids.js";
import { parseInput } from "../../lib/validation.js";
import {
  findAccountConversation,
  listConversationRows,
  type ChatViewRow,
  type ConversationRow,
} from "../../store/conversations/index.js";
import type { DomainContext } from "../core/index.js";
import { contactProfile, numberByHandle } from "../world/index.js";
import { GROUP_KINDS } from "./group-rules.js";
import { groupOf, type Group } from "./groups.js";

export type { ChatResource };

/** A conversation row as the API shows it; a group's title and members come from its group. */
export function toChat(ctx: DomainContext, row: ChatViewRow, known?: Group): ChatResource {
  const group = row.is_group ? (known ?? groupOf(ctx, row)) : undefined;
  return {
    id: row.id,
    from_handle: row.from_handle,
    remote_handle: row.remote_handle,
    is_group: row.is_group === 1,
    title: group ? group.title : row.title,
    participants: group
      ? group.members.filter((handle) => handle !== row.from_handle)
      : row.remote_handle === null
        ? []
        : [row.remote_handle],
    last_message_at: isoTime(row.last_message_at),
    created_at: isoTime(row.created_at),
    // Never before its newest message, whose created_at a busy virtual millisecond bumps ahead.
    updated_at: isoTime(Math.max(row.updated_at, row.created_at, row.last_message_at)),
  };
}

/** The account's conversation for an id in the path: 404 when malformed, unknown or another account's. */
export function conversationForPath(ctx: DomainContext, accountId: string, id: string): ConversationRow {
  const row = isUuid(id) ? findAccountConversation(ctx.db, accountId, id.toLowerCase()) : undefined;
  if (!row) throw notFound(`Chat ${id}`);
  return row;
}

/** GET /v1/chats/:id (spec 4.5): 404 for a malformed, unknown or other account's id. */
export function getChat(ctx: DomainContext, accountId: string, id: string): ChatResource {
  return toChat(ctx, conversationForPath(ctx, accountId, id));
}

/** GET /v1/chats (spec 4.5): newest activity first, paged on last_message_at. */
export function listChats(
  ctx: DomainContext,
  accountId: string,
  query: Record<string, string>,
): { data: ChatResource[]; hasMore: boolean } {
  const { limit, before } = parseInput(listChatsQuery, { limit: query.limit, before: query.before }, "query");
  const rows = listConversationRows(ctx.db, accountId, { before, limit: limit + 1 });
  return { data: rows.slice(0, limit).map((row) => toChat(ctx, row)), hasMore: rows.length > limit };
}

/**
 * The channel a thread's messages go over: a group's kind decides; a one-to-one thread's is that of
 * its newest sent or received message, else what routing would pick (iMessage when both sides
 * have it, SMS otherwise). Read and typing are refused on SMS threads.
 */
export function threadChannel(ctx: DomainContext, row: ConversationRow, group?: Group): Channel {
  if (group) return GROUP_KINDS[group.kind].channel;
  if (row.service === "whatsapp") return "whatsapp";
  if (row.channel) return row.channel as Channel;
  const servesIMessage = numberByHandle(ctx, row.from_handle)?.channels.includes("imessage") ?? false;
  return servesIMessage && row.remote_handle !== null && contactProfile(ctx, row.remote_handle).imessage
    ? "imessage"
    : "sms";
}
