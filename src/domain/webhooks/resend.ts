import { invalidState, notFound } from "../../lib/app-error.js";
import { isUuid } from "../../lib/ids.js";
import { findEvent, deleteJob } from "../../store/core/index.js";
import { countAttempts, findDelivery, insertAttempt, findWebhookById } from "../../store/webhooks/index.js";
import type { DomainContext } from "../core/index.js";
import { attemptDelivery, type Outcome } from "./attempt.js";
import { deliveryView, type DeliveryView } from "./deliveries.js";
import { applyDeliveryTransition } from "./delivery-states.js";
import { checkDeliveryTarget } from "./url-policy.js";

/**
 * `POST /sandbox/v1/deliveries/:id/resend` (as Stripe's `events resend`): one attempt of the
 * delivery's event to its endpoint now, signed afresh with the secret in force, recorded among
 * the delivery's attempts with `resend: true`. It stands outside the retry ladder: it neither
 * uses up a rung nor schedules one. An acknowledged resend settles the delivery as `succeeded`
 * (a pending one's next retry is cancelled); an unacknowledged one changes no status.
 * A deleted endpoint cannot be resent to (409 `invalid_state`); a paused one can.
 */
export async function resendDelivery(ctx: DomainContext, accountId: string, id: string): Promise<DeliveryView> {
  const delivery = isUuid(id) ? findDelivery(ctx.db, id) : undefined;
  if (!delivery || delivery.account_id !== accountId) throw notFound(`Delivery ${id}`);
  const webhook = findWebhookById(ctx.db, delivery.webhook_id);
  if (!webhook || webhook.deleted_at !== null) {
    throw invalidState(`Delivery ${id} cannot be resent: its endpoint ${delivery.webhook_id} was deleted`);
  }
  const startedAt = ctx.clock.now();
  const wallStart = ctx.wallNow();
  // The URL policy is applied again, as for every attempt: a forbidden host is dropped, not posted to.
  const target = await checkDeliveryTarget(ctx, webhook.url);
  const outcome = (await attemptDelivery(ctx, {
    target,
    url: webhook.url,
    secret: webhook.secret,
    event: findEvent(ctx.db, delivery.event_id),
    // The rung it repeats, so that X-Msgctl-Attempt stays within its documented 1-8.
    n: Math.max(1, delivery.attempt_count),
    headers: { "X-Msgctl-Resend": "1" },
  })) as Outcome;
  const durationMs = Math.max(0, Math.round(ctx.wallNow() - wallStart));

  ctx.db.transaction(() => {
    const current = findDelivery(ctx.db, id);
    // A reset while the request was out removed the delivery.
    if (!current) throw notFound(`Delivery ${id}`);
    insertAttempt(ctx.db, {
      delivery_id: id,
      n: countAttempts(ctx.db, id) + 1,
      at: startedAt,
      status_code: outcome.statusCode,
      error: outcome.error,
      duration_ms: durationMs,
      resend: 1,
      signature: outcome.signature ?? null,
    });
    if (outcome.result !== "succeeded") return;
    if (current.status === "pending" && current.job_id !== null) deleteJob(ctx.db, current.job_id);
    applyDeliveryTransition(ctx, current, "resend_acknowledged", { at: ctx.clock.now() });
  });
  const view = deliveryView(ctx, id) as DeliveryView;
  ctx.db.afterCommit(() => ctx.bus.publish("delivery", { accountId, delivery: view }));
  return view;
}
