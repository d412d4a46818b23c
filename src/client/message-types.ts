/** Shapes of messages, chats, contacts and faults as clients see them (spec section 2, SANDBOX.md). */

/** A message status (spec section 3). */
export type MessageStatus = "queued" | "sent" | "delivered" | "read" | "failed" | "unsent";

/** The Message resource. */
export interface MessageResource {
  id: string;
  conversation_id: string;
  direction: "outbound" | "inbound";
  status: MessageStatus;
  channel: "imessage" | "sms" | "whatsapp" | null;
  text: string | null;
  effect: string | null;
  reply_to: string | null;
  error: string | null;
  metadata: Record<string, unknown> | null;
  attachments: unknown[];
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  edited_at: string | null;
  created_at: string;
}

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

/** The Chat resource (one-to-one threads and groups). */
export interface ChatResource {
  id: string;
  from_handle: string;
  remote_handle: string | null;
  is_group: boolean;
  title: string | null;
  last_message_at: string;
  created_at: string;
  updated_at: string;
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

/** A number's faults as the control API shows them. */
export interface NumberFaults {
  handle: string;
  status: string;
  offline: boolean;
  transient_remaining: number;
  rate_limited: boolean;
  rate_limit_level: number;
  rate_limited_until: string | null;
  relink_required: boolean;
}

/** A fault `simulate fault` switches. */
export type FaultName = "offline" | "online" | "transient" | "rate-limited" | "relink-required";
