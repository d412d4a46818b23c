import type { DeliveryStatus } from "../contract/types.js";

/**
 * The typed client's list filters. Every option the client takes is camelCase, as in the rest of
 * JavaScript (`idempotencyKey`, `webhookId`, `timeout`); request bodies and the resources that come
 * back keep the API's own snake_case field names, so they read as the HTTP API does. The client
 * turns these options into the query parameters of the HTTP API.
 */

/** One page of a list: at most `limit` items (1-100, default 50), older than the `before` cursor. */
export interface PageOptions {
  /** 1-100; default 50. */
  limit?: number;
  /** An ISO 8601 timestamp: only items created (or active) before it; the oldest item's time fetches the next page. */
  before?: string;
}

/** Filters of `messages.list()` and `messages.all()`. */
export interface MessageListOptions extends PageOptions {
  /** Only this conversation's messages. */
  conversationId?: string;
  /** @deprecated Use `conversationId`; this spelling is still read. */
  conversation_id?: string;
}

/** Filters of `webhooks.deliveries()`. */
export interface DeliveryListOptions extends PageOptions {
  /** Only this endpoint's deliveries. */
  webhookId?: string;
  /** Only this event's deliveries (its `X-Msgctl-Event-Id`). */
  eventId?: string;
  status?: DeliveryStatus;
  /** @deprecated Use `webhookId`; this spelling is still read. */
  webhook_id?: string;
  /** @deprecated Use `eventId`; this spelling is still read. */
  event_id?: string;
}

/** Filters of `otp.texts()`. */
export interface OtpTextListOptions extends PageOptions {
  /** Only the thread with this phone. */
  phone?: string;
}

/** @deprecated Renamed `PageOptions`. */
export type PageQuery = PageOptions;
/** @deprecated Renamed `MessageListOptions`. */
export type ListMessagesQuery = MessageListOptions;
/** @deprecated Renamed `DeliveryListOptions`. */
export type DeliveryQuery = DeliveryListOptions;
/** @deprecated Renamed `OtpTextListOptions`. */
export type OtpTextsQuery = OtpTextListOptions;

/** The query parameters of a page. */
export function pageQuery(options: PageOptions): { limit?: number; before?: string } {
  return { limit: options.limit, before: options.before };
}
