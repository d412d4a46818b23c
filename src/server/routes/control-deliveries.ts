import type { EventStream } from "h3";
import { delivery, listDeliveriesQuery, retryLadder, streamDeliveriesQuery } from "../../contract/webhooks.js";
import {
  getDelivery,
  getDeliveryBody,
  getRetryLadder,
  isAccountWebhook,
  listDeliveries,
  resendDelivery,
} from "../../domain/webhooks/index.js";
import { invalidRequest } from "../../lib/app-error.js";
import { openEventStream } from "../event-stream.js";
import { ok, page, type ApiRequest, type Route } from "../route.js";

/**
 * Live delivery attempts as server-sent events (what `webhooks listen` reads): one `attempt`
 * frame per recorded attempt, its data the delivery with every attempt so far.
 */
function streamAttempts(request: ApiRequest): EventStream {
  const { ctx, account, event, query } = request;
  const webhookId = query.get("webhook_id") ?? undefined;
  if (webhookId !== undefined && !isAccountWebhook(ctx, account.id, webhookId)) {
    throw invalidRequest(`webhook_id: no webhook ${webhookId} in this account`);
  }
  return openEventStream(event, (stream) =>
    ctx.bus.on("delivery", ({ accountId, delivery }) => {
      if (accountId !== account.id || (webhookId !== undefined && delivery.webhook_id !== webhookId)) return;
      void stream.push({ event: "attempt", data: JSON.stringify(delivery) });
    }),
  );
}

const TAG = "Sandbox: webhook deliveries";

/** Webhook deliveries under /sandbox/v1 (docs/control-api.md, "Webhook deliveries"). */
export const controlDeliveryRoutes: Route[] = [
  {
    method: "GET",
    path: "/sandbox/v1/deliveries",
    doc: {
      tag: TAG,
      summary: "List deliveries",
      description: "Newest first, with every attempt; filter by endpoint, status or event.",
      query: listDeliveriesQuery,
      responses: { 200: { description: "a page of deliveries", schema: delivery, list: true } },
    },
    handler({ ctx, account, query }) {
      const { data, hasMore } = listDeliveries(ctx, account.id, Object.fromEntries(query));
      return page(data, hasMore);
    },
  },
  {
    method: "GET",
    path: "/sandbox/v1/deliveries/stream",
    doc: {
      tag: TAG,
      summary: "Stream delivery attempts live",
      description:
        "Server-sent `attempt` events, one per recorded attempt, each the delivery with every attempt so far (what `webhooks listen` reads).",
      query: streamDeliveriesQuery,
      responses: { 200: { description: "text/event-stream", raw: "text/event-stream" } },
    },
    handler: streamAttempts,
  },
  {
    method: "GET",
    path: "/sandbox/v1/deliveries/:id",
    doc: {
      tag: TAG,
      summary: "Get a delivery",
      params: { id: "the delivery's id" },
      responses: { 200: { description: "the delivery", schema: delivery } },
    },
    handler: ({ ctx, account, params }) => ok(getDelivery(ctx, account.id, params.id ?? "")),
  },
  {
    method: "GET",
    path: "/sandbox/v1/deliveries/:id/body",
    doc: {
      tag: TAG,
      summary: "A delivery's raw body",
      description:
        "The body every attempt of the delivery POSTs, byte for byte (the event's payload as sent, no envelope): the bytes its X-service-Signature covers, to save and check a signature against.",
      params: { id: "the delivery's id" },
      responses: { 200: { description: "the body, exactly as delivered", raw: "application/json" } },
    },
    handler: ({ ctx, account, params, requestId }) =>
      new Response(getDeliveryBody(ctx, account.id, params.id ?? ""), {
        headers: { "content-type": "application/json", "x-request-id": requestId },
      }),
  },
  {
    method: "POST",
    path: "/sandbox/v1/deliveries/:id/resend",
    doc: {
      tag: TAG,
      summary: "Resend a delivery",
      description:
        "One more attempt of the delivery's event to its endpoint now, signed afresh with the secret in force, recorded with `resend: true` outside the retry ladder. The answer comes after the attempt (at most the 10 s acknowledgement window). Acknowledged, it settles the delivery as `succeeded` and cancels a pending retry; otherwise no status changes.",
      params: { id: "the delivery's id" },
      responses: { 200: { description: "the delivery with the new attempt", schema: delivery } },
      errors: [404, 409],
    },
    handler: async ({ ctx, account, params }) => ok(await resendDelivery(ctx, account.id, params.id ?? "")),
  },
  {
    method: "GET",
    path: "/sandbox/v1/webhooks/retry-ladder",
    doc: {
      tag: TAG,
      summary: "The retry ladder",
      description:
        "How many attempts a delivery gets and the wait before each retry, counted from the start of the attempt before (what the inspector draws).",
      responses: { 200: { description: "the ladder", schema: retryLadder } },
    },
    handler: () => ok(getRetryLadder()),
  },
];
