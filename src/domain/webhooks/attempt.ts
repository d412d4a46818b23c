import { SIGNATURE_HEADER, signatureHeader } from "../../lib/webhook-signature.js";
import { deleteJob } from "../../store/core/index.js";
import {
  findAttemptWork,
  findDeliveryWithAttempts,
  insertAttempt,
  insertNextAttempt,
  type AttemptWork,
} from "../../store/webhooks/index.js";
import { scheduleJob, type DomainContext, type JobCompletion, type JobRun } from "../core/index.js";
import { connectionsOf } from "./connections.js";
import { abandonPendingDeliveries, deliveryView } from "./deliveries.js";
import { applyDeliveryTransition, applyToPendingDelivery, type AttemptTrigger } from "./delivery-states.js";
import { postOverPool, postWebhook, type PostOptions, type PostOutcome } from "./http.js";
import { ATTEMPT_JOB, isDeliveryCommitted } from "./new-delivery.js";
import { waitAfterAttempt } from "./retry-ladder.js";
import { checkDeliveryTarget, deliveryTargetAtOnce, type DeliveryTarget } from "./url-policy.js";

/** The User-Agent of every request the sandbox sends to a webhook endpoint. */
export const USER_AGENT = "msgctl-webhooks/1.0";

/** The header an attempt touched by seeded chaos carries: `duplicate`, `reordered` or `delayed` (docs/chaos.md). */
export const CHAOS_HEADER = "X-Msgctl-Chaos";

/** The chaos header of a ladder attempt: every attempt of a copy, the first attempt of one swapped or held back. */
function chaosHeaders(chaos: AttemptWork["chaos"], n: number): Record<string, string> | undefined {
  if (chaos === null || (chaos !== "duplicate" && n !== 1)) return undefined;
  return { [CHAOS_HEADER]: chaos };
}

/** What an attempt came to: acknowledged, worth retrying, or dropped for good. */
export interface Outcome {
  result: "succeeded" | "retry" | "dropped";
  statusCode: number | null;
  error: string | null;
  /** The signature header the request carried; null when none was sent. */
  signature?: string | null;
}

/** The delivery, its endpoint and event when an attempt is still due; undefined when it is not. */
function dueWork(ctx: DomainContext, deliveryId: string): AttemptWork | undefined {
  const work = findAttemptWork(ctx.db, deliveryId);
  if (!work || work.status !== "pending") return undefined;
  if (work.deleted_at !== null || work.enabled !== 1) {
    // Delete and pause abandon pending deliveries already; this covers any that slipped through.
    ctx.db.transaction(() => abandonPendingDeliveries(ctx, work.webhook_id, ctx.clock.now()));
    return undefined;
  }
  return work;
}

/** POSTs over the endpoint's kept-alive connections, or through an injected fetch (tests). */
function post(ctx: DomainContext, options: PostOptions): Promise<PostOutcome> {
  return ctx.fetch ? postWebhook(ctx.fetch, options) : postOverPool(connectionsOf(ctx), options);
}

/**
 * The job of one delivery attempt (spec section 6). It resolves the
 * endpoint's host again (a name only: an IP or loopback host needs no lookup), reads the secret
 * in force now, POSTs the event's payload exactly as stored, and hands back the record of the
 * attempt with the next rung of the retry ladder, which the scheduler writes in a batch.
 */
export async function runDeliveryAttempt(
  ctx: DomainContext,
  payload: { delivery_id: string },
  run: JobRun,
): Promise<JobCompletion | void> {
  // --- Still due? (this part runs inside the scheduler's transaction) ---
  let work = dueWork(ctx, payload.delivery_id);
  if (!work) return;
  // The rung of the ladder this attempt is (resends made by hand are not counted).
  const n = work.attempt_count + 1;
  const startedAt = ctx.clock.now();
  const wallStart = ctx.wallNow();

  // --- Resolve a name again; a URL PATCHed meanwhile is checked before it is used ---
  let target: DeliveryTarget | undefined = deliveryTargetAtOnce(ctx, work.url);
  if (!target) {
    target = await checkDeliveryTarget(ctx, work.url);
    for (;;) {
      if (run.signal.aborted) return;
      const current = dueWork(ctx, payload.delivery_id);
      if (!current) return;
      const checkedUrl = work.url;
      work = current;
      if (current.url === checkedUrl) break;
      target = await checkDeliveryTarget(ctx, current.url);
    }
  }

  // Nothing is delivered before the transaction that emitted it committed (the outbox).
  if (!isDeliveryCommitted(ctx, payload.delivery_id)) {
    await ctx.db.urgentCommitted();
    if (run.signal.aborted) return;
  }
  const event = work.payload === null ? undefined : { id: work.event_id, payload: work.payload };
  const outcome = await attemptDelivery(ctx, {
    target,
    url: work.url,
    secret: work.secret,
    event,
    n,
    signal: run.signal,
    headers: chaosHeaders(work.chaos, n),
  });
  if (!outcome || run.signal.aborted) return;

  // --- The record of the attempt and what comes next, written with the job's removal ---
  const durationMs = Math.max(0, Math.round(ctx.wallNow() - wallStart));
  const accountId = work.account_id;
  return () => recordAttempt(ctx, payload.delivery_id, accountId, { n, startedAt, durationMs, outcome });
}

/** A resend is made for a request that waits for it: nothing cancels it but its own timeout. */
const NEVER_ABORTED = new AbortController().signal;

/** What one attempt needs: where it goes, what it signs with, the event and its number. */
export interface AttemptPlan {
  target: DeliveryTarget;
  url: string;
  secret: string;
  event: { id: string; payload: string } | undefined;
  /** `X-Msgctl-Attempt`: the rung of the retry ladder, 1-8. */
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
  const posted = await post(ctx, {
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
  return {
    result: posted.acknowledged ? "succeeded" : "retry",
    statusCode: posted.statusCode,
    error: posted.error,
    signature,
  };
}

/** The row of the delivery status table an attempt's outcome leads to (the ladder decides retries). */
function triggerAfter(outcome: Outcome, n: number): AttemptTrigger {
  if (outcome.result === "succeeded") return "acknowledged";
  if (outcome.result === "dropped") return "dropped";
  return waitAfterAttempt(n) === undefined ? "ladder_exhausted" : "attempt_failed";
}

/**
 * Writes an attempt's record and moves its delivery. Most attempts find their delivery pending,
 * as they left it: one conditional write moves it and the attempt takes the next number, with no
 * read. One that a resend, reset or restore moved meanwhile is read again and recorded as it is.
 */
function recordAttempt(
  ctx: DomainContext,
  deliveryId: string,
  accountId: string,
  attempt: { n: number; startedAt: number; durationMs: number; outcome: Outcome },
): void {
  const { n, startedAt, durationMs, outcome } = attempt;
  const now = ctx.clock.now();
  const trigger = triggerAfter(outcome, n);
  const record = {
    delivery_id: deliveryId,
    at: startedAt,
    status_code: outcome.statusCode,
    error: outcome.error,
    duration_ms: durationMs,
    resend: 0,
    signature: outcome.signature ?? null,
  };
  let next: { at: number; jobId: number } | undefined;
  if (trigger === "attempt_failed") {
    // A retry's wait counts from the virtual time its attempt started. Retries take no lane: a
    // retrying delivery never holds back later events.
    const at = startedAt + (waitAfterAttempt(n) as number);
    next = { at, jobId: scheduleJob(ctx, ATTEMPT_JOB, { delivery_id: deliveryId }, at) };
  }
  if (applyToPendingDelivery(ctx, deliveryId, trigger, { attemptCount: n, next, at: now })) {
    insertNextAttempt(ctx.db, record);
  } else {
    // Moved meanwhile: no retry for it; the attempt is recorded on what is there, if anything.
    if (next) deleteJob(ctx.db, next.jobId);
    const delivery = findDeliveryWithAttempts(ctx.db, deliveryId);
    if (!delivery) return;
    insertAttempt(ctx.db, { ...record, n: delivery.attempts_made + 1 });
    applyDeliveryTransition(ctx, delivery, trigger, { attemptCount: n, at: now });
  }
  // Views are built only for live listeners (webhooks listen, the inspector).
  if (!ctx.bus.has("delivery")) return;
  const view = deliveryView(ctx, deliveryId);
  if (view) ctx.db.afterCommit(() => ctx.bus.publish("delivery", { accountId, delivery: view }));
}
