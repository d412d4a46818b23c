import type { EventStream } from "h3";
import { getDelivery, isAccountWebhook, listDeliveries } from "../../domain/webhooks/index.js";
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

/** Webhook deliveries under /sandbox/v1 (docs/control-api.md, "Webhook deliveries"). */
export const deliveryRoutes: Route[] = [
  {
    method: "GET",
    path: "/sandbox/v1/deliveries",
    handler({ ctx, account, query }) {
      const { data, hasMore } = listDeliveries(ctx, account.id, Object.fromEntries(query));
      return page(data, hasMore);
    },
  },
  { method: "GET", path: "/sandbox/v1/deliveries/stream", handler: streamAttempts },
  {
    method: "GET",
    path: "/sandbox/v1/deliveries/:id",
    handler: ({ ctx, account, params }) => ok(getDelivery(ctx, account.id, params.id ?? "")),
  },
];
