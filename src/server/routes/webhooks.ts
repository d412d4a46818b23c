import { createWebhook, deleteWebhook, getWebhook, listWebhooks, rotateWebhookSecret, updateWebhook } from "../../domain/webhooks/index.js";
import { ok, page, type Route } from "../route.js";

/** The webhook endpoints of spec 4.4. */
export const webhookRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/webhooks",
    async handler({ ctx, account, json, header }) {
      const { webhook, replayed } = await createWebhook(ctx, account.id, await json(), header("idempotency-key"));
      return ok(webhook, replayed ? 200 : 201);
    },
  },
  {
    method: "GET",
    path: "/v1/webhooks",
    handler({ ctx, account, query }) {
      const { data, hasMore } = listWebhooks(ctx, account.id, Object.fromEntries(query));
      return page(data, hasMore);
    },
  },
  {
    method: "GET",
    path: "/v1/webhooks/:id",
    handler: ({ ctx, account, params }) => ok(getWebhook(ctx, account.id, params.id ?? "")),
  },
  {
    method: "PATCH",
    path: "/v1/webhooks/:id",
    handler: async ({ ctx, account, params, json }) => ok(await updateWebhook(ctx, account.id, params.id ?? "", await json())),
  },
  {
    method: "POST",
    path: "/v1/webhooks/:id/rotate-secret",
    // Any body is ignored (docs/spec-decisions.md): clients that always send `{}` work.
    handler: ({ ctx, account, params }) => ok(rotateWebhookSecret(ctx, account.id, params.id ?? "")),
  },
  {
    method: "DELETE",
    path: "/v1/webhooks/:id",
    handler: ({ ctx, account, params }) => ok(deleteWebhook(ctx, account.id, params.id ?? "")),
  },
];
