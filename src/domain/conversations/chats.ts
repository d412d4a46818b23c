import type { ChatResource } from "../../lib/api-resources.js";
import { z } from "zod";
import { invalidRequest, notFound } from "../../lib/app-error.js";
import { isoTime, parseIsoTime } from "../../lib/clock.js";
import { isUuid } from "../../lib/ids.js";
import { parseInput } from "../../lib/validation.js";
import {
  findAccountConversation,
  findOneToOne,
  insertConversation,
  listConversationRows,
  touchConversation,
  type ConversationRow,
} from "../../store/conversations.js";
import type { DomainContext } from "../core/context.js";
import type { Service } from "../messages/routing.js";

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

/**
 * The one-to-one thread for a new message at `at` (its created_at), created on the first message
 * in either direction (spec 4.5), and moved to the top: `last_message_at` is that message's time.
 * Call inside the message's transaction.
 */
export function threadForMessage(
  ctx: DomainContext,
  accountId: string,
  numberHandle: string,
  remoteHandle: string,
  service: Service,
  at: number,
): ConversationRow {
  const existing = findOneToOne(ctx.db, accountId, numberHandle, remoteHandle, service);
  if (existing) {
    touchConversation(ctx.db, existing.id, at);
    return { ...existing, last_message_at: at, updated_at: at };
  }
  const row: ConversationRow = {
    id: ctx.ids.uuid(),
    account_id: accountId,
    from_handle: numberHandle,
    remote_handle: remoteHandle,
    service,
    is_group: 0,
    title: null,
    channel: null,
    inbound_at: null,
    last_message_at: at,
    created_at: at,
    updated_at: at,
  };
  insertConversation(ctx.db, row, [remoteHandle]);
  return row;
}

/** The account's conversation for an id in a body or query: 400 invalid_request naming `field`. */
export function conversationForField(ctx: DomainContext, accountId: string, id: string, field: string): ConversationRow {
  if (!isUuid(id)) throw invalidRequest(`${field}: must be a UUID`);
  const row = findAccountConversation(ctx.db, accountId, id.toLowerCase());
  if (!row) throw invalidRequest(`${field}: no conversation ${id} in this account`);
  return row;
}

/** GET /v1/chats/:id (spec 4.5): 404 for a malformed, unknown or other account's id. */
export function getChat(ctx: DomainContext, accountId: string, id: string): ChatResource {
  const row = isUuid(id) ? findAccountConversation(ctx.db, accountId, id.toLowerCase()) : undefined;
  if (!row) throw notFound(`Chat ${id}`);
  return toChat(row);
}

/** `limit` 1-100 (default 50) and a `before` ISO cursor, shared by the message and chat lists. */
export const pageQuery = z.object({
  limit: z.coerce.number({ message: "must be a whole number from 1 to 100" }).int("must be a whole number from 1 to 100").min(1, "must be from 1 to 100").max(100, "must be from 1 to 100").default(50),
  before: z
    .string()
    .optional()
    .transform((value, issue) => {
      if (value === undefined) return undefined;
      const ms = parseIsoTime(value);
      if (ms === undefined) {
        issue.addIssue({ code: "custom", message: "must be an ISO 8601 timestamp such as 2026-01-01T00:00:00.000Z" });
        return undefined;
      }
      return ms;
    }),
});

/** GET /v1/chats (spec 4.5): newest activity first, paged on last_message_at. */
export function listChats(ctx: DomainContext, accountId: string, query: Record<string, string>): { data: ChatResource[]; hasMore: boolean } {
  const { limit, before } = parseInput(pageQuery, { limit: query.limit, before: query.before }, "query");
  const rows = listConversationRows(ctx.db, accountId, { before, limit: limit + 1 });
  return { data: rows.slice(0, limit).map(toChat), hasMore: rows.length > limit };
}
