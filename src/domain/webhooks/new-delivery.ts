import { timeOrderedUuid } from "../../lib/time-ordered-id.js";
import { insertDelivery, type DeliveryRow } from "../../store/webhooks/index.js";
import { cacheOf, nextListTime, scheduleJob, type DomainContext, type EmittedEvent } from "../core/index.js";
import { DELIVERY_TRANSITIONS } from "./delivery-states.js";

/** The scheduler job kind of one delivery attempt. */
export const ATTEMPT_JOB = "webhook.attempt";

/** First attempts to one endpoint share a lane: one at a time, in emission order. */
export const laneOf = (webhookId: string) => `webhook:${webhookId}`;

const UNCOMMITTED = "webhook-uncommitted-deliveries";

/**
 * The deliveries created in the open batch. Every commit empties it: a commit ends the batch, and
 * a delivery of it is then committed or was undone with its savepoint (no job asks for it then).
 * A listener rather than an afterCommit per delivery: those are dropped with a savepoint that
 * throws, and would leave its deliveries here for good.
 */
function uncommittedDeliveries(ctx: DomainContext): Map<string, true> {
  const first = !ctx.caches.has(UNCOMMITTED);
  const uncommitted = cacheOf<string, true>(ctx, UNCOMMITTED);
  if (first) ctx.db.onCommit(() => uncommitted.clear());
  return uncommitted;
}

/** True once the transaction that created a delivery (and emitted its event) committed. */
export function isDeliveryCommitted(ctx: DomainContext, id: string): boolean {
  return !uncommittedDeliveries(ctx).has(id);
}

/** How a new delivery's first attempt is scheduled, and what chaos made of it. */
export interface NewDelivery {
  /** When its first attempt is due; null when chaos holds it back (no job yet). */
  firstAttemptAt: number | null;
  /** In the endpoint's lane (first attempts in emission order), or free (a copy, like a retry). */
  lane: boolean;
  chaos: DeliveryRow["chaos"];
}

/** Writes one delivery of an event to an endpoint, with its first-attempt job unless held; returns its id. */
export function createDelivery(ctx: DomainContext, event: EmittedEvent, webhookId: string, plan: NewDelivery): string {
  const recordedAt = nextListTime(ctx, "deliveries", event.accountId);
  // Time-ordered, like the event's id: a delivery's row and its attempts' rows append to their indexes.
  const id = timeOrderedUuid(ctx.ids, recordedAt);
  const { firstAttemptAt } = plan;
  const jobId =
    firstAttemptAt === null
      ? null
      : scheduleJob(ctx, ATTEMPT_JOB, { delivery_id: id }, firstAttemptAt, plan.lane ? laneOf(webhookId) : undefined);
  insertDelivery(ctx.db, {
    id,
    account_id: event.accountId,
    webhook_id: webhookId,
    event_id: event.id,
    event_type: event.type,
    status: DELIVERY_TRANSITIONS.created.to,
    attempt_count: 0,
    next_attempt_at: firstAttemptAt,
    job_id: jobId,
    chaos: plan.chaos,
    created_at: recordedAt,
    updated_at: recordedAt,
  });
  // Its first attempt may be read before this batch commits: it waits for the commit then.
  uncommittedDeliveries(ctx).set(id, true);
  return id;
}
