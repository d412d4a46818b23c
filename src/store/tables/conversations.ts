/** Rows of the group tables (migration 0006): groups, members, group messages and their receipts. */

/** The kind of a group: iMessage, a group MMS thread (any non-iMessage member), or WhatsApp. */
export type GroupKind = "imessage" | "mms" | "whatsapp";

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

/** Every group table, as kysely sees it. */
export interface ConversationTables {
  chat_groups: ChatGroupsTable;
  chat_group_members: ChatGroupMembersTable;
  group_messages: GroupMessagesTable;
  group_receipts: GroupReceiptsTable;
}
