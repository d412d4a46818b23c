/** The conversations' rows: one-to-one threads, groups and their members, reads and typing. */
export {
  findAccountConversation,
  findConversationOfNumber,
  findOneToOne,
  hasInboundFrom,
  insertConversation,
  isParticipant,
  listConversationRows,
  listOneToOnes,
  markInbound,
  setConversationChannel,
  touchConversation,
  type ChatViewRow,
  type ConversationRow,
} from "./conversations.js";
export {
  deleteGroupMember,
  findGroup,
  insertGroup,
  insertGroupMember,
  listGroupConversations,
  listGroupMembers,
  setGroupTitle,
  touchGroup,
  type GroupRow,
} from "./groups.js";
export { setLastReadAt, setTypingUntil } from "./read-and-typing.js";
export type { ConversationTables, GroupKind } from "./tables.js";
