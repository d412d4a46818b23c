import { SIGNATURE_HEADER, signatureHeader } from "../../lib/webhook-signature.js";
import { findEvent, type EventRow } from "../../store/events.js";
import { countAttempts, findDelivery, insertAttempt, type DeliveryRow } from "../../store/webhook-deliveries.js";
import { findWebhookById, type WebhookRow } from "../../store/webhooks.js";
import { scheduleJob, type DomainContext, type JobRun } from "../core/index.js";
import { abandonPendingDeliveries, ATTEMPT_JOB, deliveryView } from "./deliveries.js";
import { applyDeliveryTransition, type DeliveryTrigger } from "./delivery-states.js";
import { postWebhook } from "./http.js";
import { waitAfterAttempt } from "./retry-ladder.js";
import { checkDeliveryTarget, type DeliveryTarget } from "./url-policy.js";

/** The User-Agent of every delivery. */
export const USER_AGENT = "msgctl-webhooks/1.0";

/** What an attempt came to: acknowledged, worth retrying, or dropped for good. */
export interface Outcome {
  result: "succeeded" | "retry" | "dropped";
  statusCode: number | null;
  error: string | null;
  /** The signature header the request carried; null when none was sent. */
  signature?: string | null;
}

/** The delivery and its endpoint when an attempt is still due; undefined when it is not. */
function pendingAttempt(ctx: DomainContext, deliveryId: string): { delivery: DeliveryRow; webhook: WebhookRow } | undefined {
  const delivery = findDelivery(ctx.db, deliveryId);
  if (!delivery || delivery.status !== "pending") return undefined;
  const webhook = findWebhookById(ctx.db, delivery.webhook_id);
  if (!webhook || webhook.deleted_at !== null || webhook.enabled !== 1) {
    // Delete and pause abandon pending deliveries already; this covers any that slipped through.
    ctx.db.transaction(() => abandonPendingDeliveries(ctx, delivery.webhook_id, ctx.clock.now()));
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
  // The rung of the ladder this attempt is (resends made by hand are not counted).
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

  const event = findEvent(ctx.db, due.delivery.event_id);
  const outcome = await attemptDelivery(ctx, { target, url: due.webhook.url, secret: due.webhook.secret, event, n: countAttempts(ctx.db, payload.delivery_id) + 1, signal: run.signal });
  if (!outcome || run.signal.aborted) return;

  // --- Record the attempt and what comes next, in one transaction ---
  const durationMs = Math.max(0, Math.round(ctx.wallNow() - wallStart));
  const accountId = due.delivery.account_id;
  ctx.db.transaction(() => recordAttempt(ctx, payload.delivery_id, { n, startedAt, durationMs, outcome }));
  const view = deliveryView(ctx, payload.delivery_id);
  if (view) ctx.db.afterCommit(() => ctx.bus.publish("delivery", { accountId, delivery: view }));
}

/** A resend is made for a request that waits for it: nothing cancels it but its own timeout. */
const NEVER_ABORTED = new AbortController().signal;

/** What one attempt needs: where it goes, what it signs with, the event and its number. */
export interface AttemptPlan {
  target: DeliveryTarget;
  url: string;
  secret: string;
  event: EventRow | undefined;
  /** The attempt's place among the delivery's attempts (`X-Msgctl-Attempt`). */
  n: number;
  signal?: AbortSignal;
  /** Extra headers (a resend says so). */
  headers?: Record<string, string>;
}

/**
 * POSTs the event's payload exactly as stored, signed with the secret given (the one in force
 * now: a rotation applies from the next attempt on). Undefined when the attempt was aborted.
 */
export async function attemptDelivery(ctx: DomainContext, plan: AttemptPlan): Promise<Outcome | undefined> {
  const { target, event } = plan;
  if (target.kind === "drop") return { result: "dropped", statusCode: null, error: `dropped: ${target.reason}` };
  if (target.kind === "unresolved") return { result: "retry", statusCode: null, error: target.error };
  if (!event) return { result: "dropped", statusCode: null, error: "dropped: the event no longer exists" };
  const timestamp = Math.floor(ctx.wallNow() / 1000);
  const signature = signatureHeader(plan.secret, timestamp, event.payload);
  const posted = await postWebhook(ctx.fetch, {
    url: plan.url,
    body: event.payload,
    headers: {
      "content-type": "application/json",
      "user-agent": USER_AGENT,
      [SIGNATURE_HEADER]: signature,
      "X-Msgctl-Event-Id": event.id,
      "X-Msgctl-Attempt": String(plan.n),
      ...plan.headers,
    },
    timeoutMs: ctx.settings.webhookTimeoutMs,
    signal: plan.signal ?? NEVER_ABORTED,
    pinTo: target.addresses,
  });
  if (posted.aborted) return undefined;
  return { result: posted.acknowledged ? "succeeded" : "retry", statusCode: posted.statusCode, error: posted.error, signature };
}

/** The row of the delivery status table an attempt's outcome leads to (the ladder decides retries). */
function triggerAfter(outcome: Outcome, n: number): DeliveryTrigger {
  if (outcome.result === "succeeded") return "acknowledged";
  if (outcome.result === "dropped") return "dropped";
  return waitAfterAttempt(n) === undefined ? "ladder_exhausted" : "attempt_failed";
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
    n: countAttempts(ctx.db, deliveryId) + 1,
    at: startedAt,
    status_code: outcome.statusCode,
    error: outcome.error,
    duration_ms: durationMs,
    resend: 0,
    signature: outcome.signature ?? null,
  });
  const now = ctx.clock.now();
  const trigger = triggerAfter(outcome, n);
  let next: { at: number; jobId: number } | undefined;
  if (trigger === "attempt_failed" && delivery.status === "pending") {
    // A retry's wait counts from the virtual time its attempt started. Retries take no lane: a
    // retrying delivery never holds back later events.
    const at = startedAt + (waitAfterAttempt(n) as number);
    next = { at, jobId: scheduleJob(ctx, ATTEMPT_JOB, { delivery_id: deliveryId }, at) };
  }
  applyDeliveryTransition(ctx, delivery, trigger, { attemptCount: n, next, at: now });
}
