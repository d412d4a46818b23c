import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
} from "../../domain/webhooks/index.js";
import {
  createdWebhook,
  createWebhookBody,
  deletedWebhook,
  listWebhooksQuery,
  updateWebhookBody,
  webhookResource,
  webhookWithSecret,
} from "../../contract/webhooks.js";
import { ok, page, type Route } from "../route.js";

const TAG = "Webhooks";
const id = { id: "the endpoint's id" };

/** The webhook endpoints of spec 4.4. */
export const webhookRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/webhooks",
    requiresBody: { example: '{ "url": "https://example.com/webhooks" }' },
    doc: {
      tag: TAG,
      summary: "Create a webhook endpoint",
      description:
        "Every enabled endpoint receives every event it subscribes to, signed (spec 4.4, 5, 6). Loopback URLs are accepted unless --strict-urls.",
      body: createWebhookBody,
      headers: { "Idempotency-Key": "a repeated key returns the original endpoint, secret included, with 200" },
      responses: {
        201: { description: "the endpoint with its secret and the account's other endpoints", schema: createdWebhook },
        200: { description: "an idempotent replay: the original endpoint", schema: createdWebhook },
      },
      errors: [409],
    },
    async handler({ ctx, account, body, idempotencyKey }) {
      const { webhook, replayed } = await createWebhook(ctx, account.id, body(), idempotencyKey());
      return ok(webhook, replayed ? 200 : 201);
    },
  },
  {
    method: "GET",
    path: "/v1/webhooks",
    doc: {
      tag: TAG,
      summary: "List webhook endpoints",
      description: "Newest first, never with secrets.",
      query: listWebhooksQuery,
      responses: { 200: { description: "a page of endpoints", schema: webhookResource, list: true } },
    },
    handler({ ctx, account, query }) {
      const { data, hasMore } = listWebhooks(ctx, account.id, Object.fromEntries(query));
      return page(data, hasMore);
    },
  },
  {
    method: "GET",
    path: "/v1/webhooks/:id",
    doc: {
      tag: TAG,
      summary: "Get a webhook endpoint",
      params: id,
      responses: { 200: { description: "the endpoint, without its secret", schema: webhookResource } },
    },
    handler: ({ ctx, account, params }) => ok(getWebhook(ctx, account.id, params.id ?? "")),
  },
  {
    method: "PATCH",
    path: "/v1/webhooks/:id",
    requiresBody: { example: '{ "enabled": false }' },
    doc: {
      tag: TAG,
      summary: "Update a webhook endpoint",
      description:
        "Only the fields sent; `events` replaces the subscription; `enabled: false` pauses (pending deliveries are abandoned). Never echoes the secret.",
      params: id,
      body: updateWebhookBody,
      responses: { 200: { description: "the endpoint, without its secret", schema: webhookResource } },
    },
    handler: async ({ ctx, account, params, body }) =>
      ok(await updateWebhook(ctx, account.id, params.id ?? "", body())),
  },
  {
    method: "POST",
    path: "/v1/webhooks/:id/rotate-secret",
    doc: {
      tag: TAG,
      summary: "Rotate the signing secret",
      description: "A new generated secret, used from the next attempt on. Any body is ignored.",
      params: id,
      responses: { 200: { description: "the endpoint with its new secret", schema: webhookWithSecret } },
    },
    // Any body is ignored (docs/spec-decisions.md): clients that always send `{}` work.
    handler: ({ ctx, account, params }) => ok(rotateWebhookSecret(ctx, account.id, params.id ?? "")),
  },
  {
    method: "DELETE",
    path: "/v1/webhooks/:id",
    doc: {
      tag: TAG,
      summary: "Delete a webhook endpoint",
      description: "Deliveries stop at once; pending ones become abandoned and stay listed.",
      params: id,
      responses: { 200: { description: "deleted", schema: deletedWebhook } },
    },
    handler: ({ ctx, account, params }) => ok(deleteWebhook(ctx, account.id, params.id ?? "")),
  },
];
