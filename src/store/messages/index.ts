/** The messages' rows: messages and their lifecycle, actions on them, group copies and receipts. */
export {
  findAccountMessage,
  findMessageById,
  insertMessage,
  listMessageRows,
  moveConversationMessages,
  saveLifecycle,
  updateMessage,
  type LifecycleColumn,
  type MessageRow,
  type MessageViewRow,
} from "./messages.js";
export { findLifecycleMessage, findSendMessage, type LifecycleRead } from "./lifecycle-read.js";
export {
  findMessageAction,
  insertMessageAction,
  listLandedReactions,
  listMessageActions,
  updateMessageAction,
  type MessageActionRow,
} from "./actions.js";
export {
  findGroupMessage,
  findReceipt,
  insertGroupMessage,
  insertReceipts,
  listCopyIds,
  listReceipts,
  updateReceipt,
} from "./group-messages.js";
export type { MessagesTable, MessageTables } from "./tables.js";
