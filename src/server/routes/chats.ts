import { getChat, listChats } from "../../domain/conversations/index.js";
import { chatResource, listChatsQuery } from "../../contract/chats.js";
import { ok, page, type Route } from "../route.js";

/** One-to-one threads (spec 4.5, GET only; group chats come with their own issue). */
export const chatRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/chats",
    doc: { tag: "Conversations", summary: "List chats", description: "Newest activity first, paged on last_message_at.", query: listChatsQuery, responses: { 200: { description: "a page of Chats", schema: chatResource, list: true } } },
    handler({ ctx, account, query }) {
      const { data, hasMore } = listChats(ctx, account.id, Object.fromEntries(query));
      return page(data, hasMore);
    },
  },
  {
    method: "GET",
    path: "/v1/chats/:id",
    doc: { tag: "Conversations", summary: "Get a chat", params: { id: "the conversation's id" }, responses: { 200: { description: "the Chat", schema: chatResource } } },
    handler: ({ ctx, account, params }) => ok(getChat(ctx, account.id, params.id ?? "")),
  },
];
