/**
 * The wire shapes of the resources the API answers with (spec section 2, SANDBOX.md), defined
 * once: the domain builds them and the client reads them, so a change breaks both at compile time.
 */

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
