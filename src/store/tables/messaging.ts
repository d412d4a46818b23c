/** Rows of the messaging tables: conversations and their participants, messages, actions, faults. */

/** A thread: one-to-one, or one member number's conversation in a group (is_group, group_id). */
export interface ConversationsTable {
  id: string;
  account_id: string;
  /** The account's number this thread belongs to. */
  from_handle: string;
  /** The contact of a one-to-one thread; null for groups (their members are chat_group_members). */
  remote_handle: string | null;
  /** `text` (iMessage/SMS share one thread per contact) or `whatsapp`. */
  service: "text" | "whatsapp";
  is_group: number;
  /** One-to-one threads have none (null); a group's title is its chat_groups row's. */
  title: string | null;
  /** The channel of the thread's newest sent or received message; null until one is. */
  channel: string | null;
  /** When the contact first wrote in this thread: the Android rule's "inbound message on record". */
  inbound_at: number | null;
  /** created_at of the newest message: unique, so chats page on it without skips. */
  last_message_at: number;
  created_at: number;
  updated_at: number;
  /** The group this conversation is one member number's view of; null for one-to-one threads (0006). */
  group_id: string | null;
  /** Until when the contacts see the account's typing bubble; null when hidden (0006). */
  typing_until: number | null;
  /** When the account last marked the thread read (0006). */
  last_read_at: number | null;
}

/** Who takes part in a one-to-one thread besides the account's number. */
export interface ConversationParticipantsTable {
  conversation_id: string;
  /** The contact's handle (groups keep their members in chat_group_members). */
  handle: string;
  created_at: number;
}

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

/** Every messaging table, as kysely sees it. */
export interface MessagingTables {
  conversations: ConversationsTable;
  conversation_participants: ConversationParticipantsTable;
  messages: MessagesTable;
  message_actions: MessageActionsTable;
}
