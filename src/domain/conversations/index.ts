/**
 * Conversations (spec 4.5): threads made on the first message either way, iMessage groups created
 * through the API and groups that arrive from contacts, their members and titles, one
 * conversation per member number, read and typing, listed as Chats.
 */
export { chatRemoteView, readOrTypingThread, setChatReadAt, setChatTyping } from "./read-and-typing.js";
export { conversationForPath, getChat, listChats, threadChannel, toChat, type ChatResource } from "./chats.js";
export { createGroupChat } from "./create-group.js";
export {
  addChatParticipant,
  addGroupMember,
  chatNow,
  joinRefusal,
  removeChatParticipant,
  removeGroupMember,
  renameChat,
  renameGroup,
} from "./group-changes.js";
export { GROUP_KINDS, type GroupKind } from "./group-rules.js";
export {
  accountNumbersAmong,
  assertMember,
  assertStillMember,
  conversationOfNumber,
  createGroup,
  groupById,
  memberConversations,
  requireGroup,
  type Group,
} from "./groups.js";
export { conversationForField, serviceOf, threadForMessage, touchThread, type Service } from "./threads.js";
