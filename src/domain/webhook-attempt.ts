import { SIGNATURE_HEADER, signatureHeader } from "../lib/webhook-signature.js";
import { findEvent } from "../store/events.js";
import { findDelivery, insertAttempt, updateDeliveryRow, type DeliveryRow } from "../store/webhook-deliveries.js";
import { findWebhookById, type WebhookRow } from "../store/webhooks.js";
import type { DomainContext } from "./context.js";
import type { JobRun } from "./jobs.js";
import { scheduleJob } from "./jobs.js";
import { publishDeliveryAttempt } from "./webhook-activity.js";
import { ATTEMPT_JOB, abandonPendingDeliveries, deliveryView } from "./webhook-deliveries.js";
import { postWebhook } from "./webhook-http.js";
import { waitAfterAttempt } from "./webhook-retry-ladder.js";
import { checkDeliveryTarget } from "./webhook-url-policy.js";

/** The User-Agent of every delivery. */
export const USER_AGENT = "msgctl-webhooks/1.0";

/** What an attempt came to: acknowledged, worth retrying, or dropped for good. */
interface Outcome {
  result: "succeeded" | "retry" | "dropped";
  statusCode: number | null;
  error: string | null;
}

/** The delivery and its endpoint when an attempt is still due; undefined when it is not. */
function pendingAttempt(ctx: DomainContext, deliveryId: string): { delivery: DeliveryRow; webhook: WebhookRow } | undefined {
  const delivery = findDelivery(ctx.db, deliveryId);
  if (!delivery || delivery.status !== "pending") return undefined;
  const webhook = findWebhookById(ctx.db, delivery.webhook_id);
  if (!webhook || webhook.deleted_at !== null || webhook.enabled !== 1) {
    // Delete and pause abandon pending deliveries already; this covers any that slipped through.
    ctx.db.transaction(() => abandonPendingDeliveries(ctx, delivery.webhook_id, ctx.recordTime()));
    return undefined;
  }
  return { delivery, webhook };
}

/**
 * The job of one delivery attempt (spec section 6, SANDBOX.md section 5). It resolves the
 * endpoint's host again, reads the secret in force now, POSTs the event's payload exactly as
 * stored, then records the attempt and schedules the next rung of the retry ladder.
 */
export async function runDeliveryAttempt(ctx: DomainContext, payload: { delivery_id: string }, run: JobRun): Promise<void> {
  // --- Still due? (this part runs inside the scheduler's transaction) ---
  let due = pendingAttempt(ctx, payload.delivery_id);
  if (!due) return;
  const n = due.delivery.attempt_count + 1;
  const startedAt = ctx.clock.now();
  const wallStart = ctx.wallNow();

  // --- Resolve the host again; a PATCHed URL is checked before it is used ---
  let target = await checkDeliveryTarget(ctx, due.webhook.url);
  for (;;) {
    if (run.signal.aborted) return;
    const current = pendingAttempt(ctx, payload.delivery_id);
    if (!current) return;
    const checkedUrl = due.webhook.url;
    due = current;
    if (current.webhook.url === checkedUrl) break;
    target = await checkDeliveryTarget(ctx, current.webhook.url);
  }

  let outcome: Outcome;
  if (target.kind === "drop") {
    outcome = { result: "dropped", statusCode: null, error: `dropped: ${target.reason}` };
  } else if (target.kind === "unresolved") {
    outcome = { result: "retry", statusCode: null, error: target.error };
  } else {
    const event = findEvent(ctx.db, due.delivery.event_id);
    if (!event) {
      outcome = { result: "dropped", statusCode: null, error: "dropped: the event no longer exists" };
    } else {
      // --- Sign with the secret in force now (a rotation applies from the next attempt on) ---
      const timestamp = Math.floor(ctx.wallNow() / 1000);
      const posted = await postWebhook(ctx.fetch, {
        url: due.webhook.url,
        body: event.payload,
        headers: {
          "content-type": "application/json",
          "user-agent": USER_AGENT,
          [SIGNATURE_HEADER]: signatureHeader(due.webhook.secret, timestamp, event.payload),
          "X-Msgctl-Event-Id": event.id,
          "X-Msgctl-Attempt": String(n),
        },
        timeoutMs: ctx.settings.webhookTimeoutMs,
        signal: run.signal,
        pinTo: target.addresses,
      });
      if (posted.aborted || run.signal.aborted) return;
      outcome = { result: posted.acknowledged ? "succeeded" : "retry", statusCode: posted.statusCode, error: posted.error };
    }
  }

  // --- Record the attempt and what comes next, in one transaction ---
  const durationMs = Math.max(0, Math.round(ctx.wallNow() - wallStart));
  const accountId = due.delivery.account_id;
  ctx.db.transaction(() => recordAttempt(ctx, payload.delivery_id, { n, startedAt, durationMs, outcome }));
  const view = deliveryView(ctx, payload.delivery_id);
  if (view) publishDeliveryAttempt(ctx, accountId, view);
}

function recordAttempt(
  ctx: DomainContext,
  deliveryId: string,
  attempt: { n: number; startedAt: number; durationMs: number; outcome: Outcome },
): void {
  const { n, startedAt, durationMs, outcome } = attempt;
  const delivery = findDelivery(ctx.db, deliveryId);
  if (!delivery) return;
  insertAttempt(ctx.db, {
    delivery_id: deliveryId,
    n,
    at: startedAt,
    status_code: outcome.statusCode,
    error: outcome.error,
    duration_ms: durationMs,
  });
  const now = ctx.recordTime();
  if (delivery.status !== "pending") {
    // Abandoned (endpoint deleted or paused) while this attempt was in flight: it stays so.
    updateDeliveryRow(ctx.db, deliveryId, { attempt_count: n, updated_at: now });
    return;
  }
  if (outcome.result !== "retry") {
    const status = outcome.result === "succeeded" ? "succeeded" : "dropped";
    updateDeliveryRow(ctx.db, deliveryId, { status, attempt_count: n, next_attempt_at: null, job_id: null, updated_at: now });
    return;
  }
  const wait = waitAfterAttempt(n);
  if (wait === undefined) {
    updateDeliveryRow(ctx.db, deliveryId, { status: "failed", attempt_count: n, next_attempt_at: null, job_id: null, updated_at: now });
    return;
  }
  // Retries take no lane: a retrying delivery never holds back later events.
  const nextAt = startedAt + wait;
  const jobId = scheduleJob(ctx, ATTEMPT_JOB, { delivery_id: deliveryId }, nextAt);
  updateDeliveryRow(ctx.db, deliveryId, { attempt_count: n, next_attempt_at: nextAt, job_id: jobId, updated_at: now });
}
