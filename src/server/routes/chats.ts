import { getChat, listChats } from "../../domain/conversations/index.js";
import { ok, page, type Route } from "../route.js";

/** One-to-one threads (spec 4.5, GET only; group chats come with their own issue). */
export const chatRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/chats",
    handler({ ctx, account, query }) {
      const { data, hasMore } = listChats(ctx, account.id, Object.fromEntries(query));
      return page(data, hasMore);
    },
  },
  { method: "GET", path: "/v1/chats/:id", handler: ({ ctx, account, params }) => ok(getChat(ctx, account.id, params.id ?? "")) },
];
