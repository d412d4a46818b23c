/** Conversations (spec 4.5): threads made on the first message either way, listed as Chats. */
export { getChat, listChats, toChat, type ChatResource } from "./chats.js";
export { conversationForField, serviceOf, threadForMessage, type Service } from "./threads.js";
