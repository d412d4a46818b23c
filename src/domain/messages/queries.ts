import { listMessagesQuery as listQuery } from "../../contract/messages.js";
import { invalidRequest, notFound } from "../../lib/app-error.js";
import { isUuid } from "../../lib/ids.js";
import { parseInput } from "../../lib/validation.js";
import { findAccountMessage, listMessageRows, type MessageRow } from "../../store/messages/index.js";
import { conversationForField } from "../conversations/index.js";
import type { DomainContext } from "../core/index.js";
import { toMessage, type MessageResource } from "./views.js";

/** GET /v1/messages (spec 4.3): newest first, `before` on created_at, optional thread filter. */
export function listMessages(
  ctx: DomainContext,
  accountId: string,
  query: Record<string, string>,
): { data: MessageResource[]; hasMore: boolean } {
  const { limit, before, conversation_id } = parseInput(
    listQuery,
    { limit: query.limit, before: query.before, conversation_id: query.conversation_id },
    "query",
  );
  // An id in a query filter that is not the account's is 400 naming it.
  const conversationId =
    conversation_id === undefined
      ? undefined
      : conversationForField(ctx, accountId, conversation_id, "conversation_id").id;
  const rows = listMessageRows(ctx.db, accountId, { conversationId, before, limit: limit + 1 });
  return {
    data: rows.slice(0, limit).map((row) => toMessage(ctx, row, row.in_group === 1)),
    hasMore: rows.length > limit,
  };
}

/** The account's message for an id in the path: 404 when malformed, unknown or another account's. */
export function messageForPath(ctx: DomainContext, accountId: string, id: string): MessageRow {
  const row = isUuid(id) ? findAccountMessage(ctx.db, accountId, id.toLowerCase()) : undefined;
  if (!row) throw notFound(`Message ${id}`);
  return row;
}

/** The account's message for an id in a body: 400 invalid_request naming `field`. */
export function messageForField(ctx: DomainContext, accountId: string, id: string, field: string): MessageRow {
  if (!isUuid(id)) throw invalidRequest(`${field}: must be a UUID`);
  const row = findAccountMessage(ctx.db, accountId, id.toLowerCase());
  if (!row) throw invalidRequest(`${field}: no message ${id} in this account`);
  return row;
}

/** GET /v1/messages/:id. */
export function getMessage(ctx: DomainContext, accountId: string, id: string): MessageResource {
  return toMessage(ctx, messageForPath(ctx, accountId, id));
}
