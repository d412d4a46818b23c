/**
 * Rows of the conversations: one-to-one threads and each member number's view of a group, their
 * participants, the groups and their members.
 */

/** The kind of a group: iMessage, a group MMS thread (any non-iMessage member), or WhatsApp. */
export type GroupKind = "imessage" | "mms" | "whatsapp";

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

/** A group chat as the account's numbers see it: one row, whatever number of them are members. */
export interface ChatGroupsTable {
  id: string;
  account_id: string;
  kind: GroupKind;
  title: string | null;
  created_at: number;
  updated_at: number;
}

/** Everyone in a group, contacts and the account's numbers alike. */
export interface ChatGroupMembersTable {
  group_id: string;
  handle: string;
  /** Joining order (1, 2, …): participants are listed in it. */
  position: number;
  created_at: number;
}

/** Every table of the conversations, as kysely sees it. */
export interface ConversationTables {
  conversations: ConversationsTable;
  conversation_participants: ConversationParticipantsTable;
  chat_groups: ChatGroupsTable;
  chat_group_members: ChatGroupMembersTable;
}
