/**
 * Rows of the messages: outbound and inbound, the actions made on them (react, edit, unsend), and
 * the copies of a group message with its members' receipts.
 */

/** A message, outbound or inbound, with its send retry bookkeeping. */
export interface MessagesTable {
  id: string;
  account_id: string;
  conversation_id: string;
  direction: "outbound" | "inbound";
  status: "queued" | "sent" | "delivered" | "read" | "failed" | "unsent";
  channel: "imessage" | "sms" | "whatsapp" | null;
  /** The account's number (sender of outbound, receiver of inbound): faults and routing use it. */
  number_handle: string;
  /** The contact: recipient of outbound, sender of inbound; an outbound group message holds its group's id. */
  remote_handle: string;
  /** `whatsapp` when the send asked for it; null lets routing pick iMessage or SMS. */
  requested_channel: string | null;
  text: string | null;
  effect: string | null;
  reply_to: string | null;
  error: string | null;
  /** JSON object or null. */
  metadata: string | null;
  /** 1 when attachments were claimed (the attachments table holds them); spares a lookup otherwise. */
  has_attachments: number;
  voice_memo: number;
  media_quality: "fit" | "original";
  /** Send attempts that counted toward the 5 (transient errors). */
  attempts: number;
  /** Virtual time of the first send attempt; the 24-hour retry window counts from it. */
  first_attempt_at: number | null;
  /** The next offline backoff wait (30 s doubling to 5 min). */
  backoff_ms: number;
  /** When the next send attempt is due, while queued. */
  next_attempt_at: number | null;
  /** Bumped whenever the status moves outside the job chain (retry, simulate): stale jobs see it and stop. */
  generation: number;
  sent_at: number | null;
  delivered_at: number | null;
  read_at: number | null;
  edited_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A reaction, edit or unsend made through the API, with its own retry bookkeeping. */
export interface MessageActionsTable {
  id: string;
  account_id: string;
  message_id: string;
  kind: "react" | "edit" | "unsend";
  reaction: string | null;
  remove: number;
  text: string | null;
  /** pending until it lands (`done`) or the retry policy drops it (`dropped`). */
  status: "pending" | "done" | "dropped";
  error: string | null;
  attempts: number;
  first_attempt_at: number | null;
  backoff_ms: number;
  created_at: number;
  updated_at: number;
}

/** Marks a message as a group message and ties the copies of one message together. */
export interface GroupMessagesTable {
  message_id: string;
  group_id: string;
  /**
   * The id shared by every copy of one group message (each member number of the account records
   * its own): the first copy's id.
   */
  origin_id: string;
  created_at: number;
}

/** One member's receipt of an outbound group message. */
export interface GroupReceiptsTable {
  message_id: string;
  handle: string;
  position: number;
  delivered_at: number | null;
  read_at: number | null;
}

/** Every table of the messages, as kysely sees it. */
export interface MessageTables {
  messages: MessagesTable;
  message_actions: MessageActionsTable;
  group_messages: GroupMessagesTable;
  group_receipts: GroupReceiptsTable;
}
