import {
  editMessage,
  getMessage,
  handleAvailability,
  listMessages,
  reactToMessage,
  retryMessage,
  sendMessage,
  unsendMessage,
} from "../../domain/messages/index.js";
import { ok, page, type Route } from "../route.js";

/** Messages and handle availability (spec 4.3). */
export const messageRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/messages",
    async handler({ ctx, account, json, header }) {
      const result = sendMessage(ctx, account.id, await json(), header("idempotency-key"));
      return ok(result.message, result.replayed ? 200 : 202);
    },
  },
  {
    method: "GET",
    path: "/v1/messages",
    handler({ ctx, account, query }) {
      const { data, hasMore } = listMessages(ctx, account.id, Object.fromEntries(query));
      return page(data, hasMore);
    },
  },
  { method: "GET", path: "/v1/messages/:id", handler: ({ ctx, account, params }) => ok(getMessage(ctx, account.id, params.id ?? "")) },
  {
    method: "POST",
    path: "/v1/messages/:id/react",
    handler: async ({ ctx, account, params, json }) => ok(reactToMessage(ctx, account.id, params.id ?? "", await json())),
  },
  {
    method: "POST",
    path: "/v1/messages/:id/edit",
    handler: async ({ ctx, account, params, json }) => ok(editMessage(ctx, account.id, params.id ?? "", await json())),
  },
  {
    method: "POST",
    path: "/v1/messages/:id/unsend",
    // Any body is ignored (docs/spec-decisions.md): clients that always send `{}` work.
    handler: ({ ctx, account, params }) => ok(unsendMessage(ctx, account.id, params.id ?? "")),
  },
  {
    method: "POST",
    path: "/v1/messages/:id/retry",
    handler: ({ ctx, account, params }) => ok(retryMessage(ctx, account.id, params.id ?? "")),
  },
  {
    method: "GET",
    path: "/v1/handles/availability",
    handler: ({ ctx, query }) => ok(handleAvailability(ctx, query.get("handle"))),
  },
];
