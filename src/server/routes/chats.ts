import {
  addChatParticipant,
  createGroupChat,
  getChat,
  listChats,
  markChatRead,
  removeChatParticipant,
  renameChat,
  setChatTyping,
} from "../../domain/conversations/index.js";
import { ok, page, type Route } from "../route.js";

/** Conversations (spec 4.5): threads and groups, group creation and changes, read and typing. */
export const chatRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/chats",
    handler({ ctx, account, query }) {
      const { data, hasMore } = listChats(ctx, account.id, Object.fromEntries(query));
      return page(data, hasMore);
    },
  },
  {
    method: "POST",
    path: "/v1/chats",
    async handler({ ctx, account, json, header }) {
      const result = createGroupChat(ctx, account.id, await json(), header("idempotency-key"));
      return ok(result.chat, result.replayed ? 200 : 201);
    },
  },
  { method: "GET", path: "/v1/chats/:id", handler: ({ ctx, account, params }) => ok(getChat(ctx, account.id, params.id ?? "")) },
  {
    method: "PATCH",
    path: "/v1/chats/:id",
    handler: async ({ ctx, account, params, json }) => ok(renameChat(ctx, account.id, params.id ?? "", await json())),
  },
  {
    method: "POST",
    path: "/v1/chats/:id/participants",
    handler: async ({ ctx, account, params, json }) => ok(addChatParticipant(ctx, account.id, params.id ?? "", await json())),
  },
  {
    method: "DELETE",
    path: "/v1/chats/:id/participants/:handle",
    handler: ({ ctx, account, params }) => ok(removeChatParticipant(ctx, account.id, params.id ?? "", params.handle ?? "")),
  },
  {
    method: "POST",
    path: "/v1/chats/:id/read",
    // Any body is ignored (docs/spec-decisions.md): clients that always send `{}` work.
    handler: ({ ctx, account, params }) => ok(markChatRead(ctx, account.id, params.id ?? "")),
  },
  {
    method: "POST",
    path: "/v1/chats/:id/typing",
    handler: async ({ ctx, account, params, json }) => ok(setChatTyping(ctx, account.id, params.id ?? "", await json())),
  },
];
