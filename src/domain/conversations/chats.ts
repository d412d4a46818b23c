import { listChatsQuery, type ChatResource } from "../../contract/chats.js";
import { notFound } from "../../lib/app-error.js";
import { isoTime } from "../../lib/clock.js";
import { isUuid } from "../../lib/ids.js";
import { parseInput } from "../../lib/validation.js";
import { findAccountConversation, listConversationRows, type ConversationRow } from "../../store/conversations.js";
import type { DomainContext } from "../core/index.js";

export type { ChatResource };

/** A conversation row as the API shows it. */
export function toChat(row: ConversationRow): ChatResource {
  return {
    id: row.id,
    from_handle: row.from_handle,
    remote_handle: row.remote_handle,
    is_group: row.is_group === 1,
    title: row.title,
    last_message_at: isoTime(row.last_message_at),
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
  };
}

/** GET /v1/chats/:id (spec 4.5): 404 for a malformed, unknown or other account's id. */
export function getChat(ctx: DomainContext, accountId: string, id: string): ChatResource {
  const row = isUuid(id) ? findAccountConversation(ctx.db, accountId, id.toLowerCase()) : undefined;
  if (!row) throw notFound(`Chat ${id}`);
  return toChat(row);
}

/** GET /v1/chats (spec 4.5): newest activity first, paged on last_message_at. */
export function listChats(ctx: DomainContext, accountId: string, query: Record<string, string>): { data: ChatResource[]; hasMore: boolean } {
  const { limit, before } = parseInput(listChatsQuery, { limit: query.limit, before: query.before }, "query");
  const rows = listConversationRows(ctx.db, accountId, { before, limit: limit + 1 });
  return { data: rows.slice(0, limit).map(toChat), hasMore: rows.length > limit };
}
