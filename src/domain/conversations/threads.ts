import { invalidRequest } from "../../lib/app-error.js";
import { isUuid } from "../../lib/ids.js";
import {
  findAccountConversation,
  findOneToOne,
  insertConversation,
  touchConversation,
  type ConversationRow,
} from "../../store/conversations/index.js";
import type { DomainContext } from "../core/index.js";

/** A thread's service: iMessage and SMS share one thread per contact; WhatsApp has its own. */
export type Service = "text" | "whatsapp";

/** The service (thread family) of a channel. */
export const serviceOf = (channel: string | null): Service => (channel === "whatsapp" ? "whatsapp" : "text");

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
  if (existing) return touchThread(ctx, existing, at);
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
    group_id: null,
    typing_until: null,
    last_read_at: null,
  };
  insertConversation(ctx.db, row, [remoteHandle]);
  return row;
}

/** Moves a thread to the top for its new message at `at` (that message's created_at); returns it as it now is. */
export function touchThread(ctx: DomainContext, row: ConversationRow, at: number): ConversationRow {
  touchConversation(ctx.db, row.id, at);
  return { ...row, last_message_at: at, updated_at: at };
}

/** The account's conversation for an id in a body or query: 400 invalid_request naming `field`. */
export function conversationForField(
  ctx: DomainContext,
  accountId: string,
  id: string,
  field: string,
): ConversationRow {
  if (!isUuid(id)) throw invalidRequest(`${field}: must be a UUID`);
  const row = findAccountConversation(ctx.db, accountId, id.toLowerCase());
  if (!row) throw invalidRequest(`${field}: no conversation ${id} in this account`);
  return row;
}
