/** Shapes of messages, chats, contacts and faults as clients see them (spec section 2, SANDBOX.md). */

import type { ChatResource, MessageResource, MessageStatus, NumberFaults } from "../lib/api-resources.js";

export type { ChatResource, MessageResource, MessageStatus, NumberFaults };

/** The body of POST /v1/messages. */
export interface SendMessageInput {
  to?: string;
  from_handle?: string;
  conversation_id?: string;
  text?: string;
  attachment_ids?: string[];
  reply_to?: string;
  effect?: string;
  channel?: "whatsapp";
  voice_memo?: boolean;
  media_quality?: "fit" | "original";
}

/** GET /v1/handles/availability. */
export interface HandleAvailability {
  handle: string;
  imessage: boolean;
  channel: "imessage" | "sms";
}

/** A page of a list: `before` the oldest item's cursor fetches the next. */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

/** The traits of a contact that decide routing (SANDBOX.md section 3). */
export interface ContactTraits {
  imessage: boolean;
  platform: "ios" | "android";
  whatsapp: boolean;
  reachable: boolean;
  read_receipts: boolean;
}

/** A contact as the control API shows it. */
export interface ContactView extends ContactTraits {
  handle: string;
  source: "contact" | "magic" | "default";
  description?: string;
}

/** A fault `simulate fault` switches. */
export type FaultName = "offline" | "online" | "transient" | "rate-limited" | "relink-required";
