import {
  deleteHold,
  deleteHoldsOf,
  holdBefore,
  insertHold,
  lastHold,
  listHeldEndpoints,
  listHoldsAfter,
  markHoldPaired,
  waitingHold,
  type HoldRow,
} from "../../store/chaos/index.js";
import { findDelivery, saveDeliveryState, setDeliveryChaos } from "../../store/webhooks/index.js";
import {
  decideDelivery,
  endpointNumberOf,
  numberEvent,
  recordChaos,
  SWAP_WAIT_MS,
  type ActiveChaos,
  type DeliveryDecision,
} from "../chaos/index.js";
import { scheduleJob, type DomainContext, type EmittedEvent, type JobHandler } from "../core/index.js";
import { ATTEMPT_JOB, createDelivery, laneOf } from "./new-delivery.js";

/**
 * Deliveries under seeded chaos (docs/chaos.md). Each delivery of an event to an endpoint may
 * get a copy 1-60 s later (a delivery of its own, outside the lane, like a retry), and its first
 * attempt may wait an extra 1-30 s or swap places with the next first attempt to the endpoint.
 *
 * A first attempt held back gets no job until it goes: the endpoint's held deliveries form a
 * queue (table chaos_holds) that a `webhook.release` job lets go, each once nothing before it is
 * held and its own times have passed, into the endpoint's lane at the clock's now. Later first
 * attempts to the endpoint join the queue behind it, so emission order holds (the scheduler's
 * lanes only ever take jobs due now); a swap is the one place it is broken, on purpose: the next
 * delivery is put in front of the one waiting to swap.
 */

/** The scheduler job kind that lets an endpoint's held first attempts go. */
export const RELEASE_JOB = "webhook.release";

/** An endpoint and the event names it subscribes to. */
interface Endpoint {
  id: string;
  events: ReadonlySet<string>;
}

/** The fan-out of one event with chaos on: numbered, then decided on per subscribed endpoint. */
export function fanOutWithChaos(
  ctx: DomainContext,
  chaos: ActiveChaos,
  event: EmittedEvent,
  endpoints: readonly Endpoint[],
): void {
  const eventNumber = numberEvent(ctx, event.accountId);
  const now = ctx.clock.now();
  for (const endpoint of endpoints) {
    if (!endpoint.events.has(event.type)) continue;
    const endpointNumber = endpointNumberOf(ctx, endpoint.id);
    const decision = decideDelivery(chaos, eventNumber, endpointNumber);
    const work = { eventId: event.id, eventType: event.type, eventNumber, webhookId: endpoint.id, endpointNumber };
    const held = decision.swap || decision.extraWaitMs !== undefined;
    const chaosKind = decision.swap ? "reordered" : held ? "delayed" : null;
    const deliveryId = createDelivery(ctx, event, endpoint.id, { firstAttemptAt: null, lane: true, chaos: chaosKind });
    if (decision.extraWaitMs !== undefined)
      recordChaos(ctx, event.accountId, "delayed", { ...work, deliveryId, delayMs: decision.extraWaitMs });
    queueFirstAttempt(
      ctx,
      { deliveryId, accountId: event.accountId, webhookId: endpoint.id, eventNumber },
      decision,
      now,
    );
    if (decision.duplicateAfterMs !== undefined) {
      const copyId = createDelivery(ctx, event, endpoint.id, {
        firstAttemptAt: now + decision.duplicateAfterMs,
        lane: false,
        chaos: "duplicate",
      });
      recordChaos(ctx, event.accountId, "duplicate", {
        ...work,
        deliveryId: copyId,
        delayMs: decision.duplicateAfterMs,
      });
    }
  }
}

/** A delivery whose first attempt is being queued, with what the log says of it. */
interface QueuedDelivery {
  deliveryId: string;
  accountId: string;
  webhookId: string;
  eventNumber: number;
}

/**
 * Schedules a new delivery's first attempt in its endpoint's lane now, or holds it: when chaos
 * holds it back, or when the endpoint has deliveries held already (it goes after them, unless
 * one of them waits to swap: it goes in front of that one).
 */
function queueFirstAttempt(ctx: DomainContext, delivery: QueuedDelivery, decision: DeliveryDecision, now: number) {
  const { deliveryId, webhookId } = delivery;
  const last = lastHold(ctx.db, webhookId);
  const releaseAt = decision.extraWaitMs === undefined ? null : now + decision.extraWaitMs;
  const pairBy = decision.swap ? now + SWAP_WAIT_MS : null;
  if (!last && releaseAt === null && pairBy === null) {
    scheduleFirstAttempt(ctx, deliveryId, webhookId, now);
    return;
  }
  let position = (last?.position ?? 0) + 1;
  const partner = last && waitingHold(ctx.db, webhookId);
  if (partner) {
    // The swap: this delivery goes just before the one waiting for a partner, which goes right after it.
    const before = holdBefore(ctx.db, webhookId, partner.position);
    position = before ? (before.position + partner.position) / 2 : partner.position - 1;
    markHoldPaired(ctx.db, partner.delivery_id);
    logHeld(ctx, partner, "reordered", now - ((partner.pair_by as number) - SWAP_WAIT_MS));
  }
  insertHold(ctx.db, {
    delivery_id: deliveryId,
    account_id: delivery.accountId,
    webhook_id: webhookId,
    event_number: delivery.eventNumber,
    position,
    release_at: releaseAt,
    pair_by: pairBy,
  });
  const wakeAt = Math.max(releaseAt ?? now, pairBy ?? now);
  if (wakeAt > now) {
    const row = findDelivery(ctx.db, deliveryId);
    if (row) saveDeliveryState(ctx.db, { ...row, next_attempt_at: wakeAt });
    scheduleJob(ctx, RELEASE_JOB, { webhook_id: webhookId }, wakeAt);
  }
  // The partner no longer waits: what is in front of the queue may go now.
  if (partner) releaseHeld(ctx, webhookId, now);
}

/** Records what became of a held delivery: swapped (`reordered`), or gone alone after waiting for a partner (`delayed`). */
function logHeld(ctx: DomainContext, hold: HoldRow, kind: "reordered" | "delayed", heldMs: number): void {
  const row = findDelivery(ctx.db, hold.delivery_id);
  if (!row) return;
  recordChaos(ctx, hold.account_id, kind, {
    eventId: row.event_id,
    eventType: row.event_type,
    eventNumber: hold.event_number,
    webhookId: hold.webhook_id,
    endpointNumber: endpointNumberOf(ctx, hold.webhook_id),
    deliveryId: hold.delivery_id,
    delayMs: heldMs,
  });
}

/** Puts a delivery's first attempt in its endpoint's lane, due now (newest in the lane: order holds). */
function scheduleFirstAttempt(ctx: DomainContext, deliveryId: string, webhookId: string, now: number): void {
  const row = findDelivery(ctx.db, deliveryId);
  if (row?.status !== "pending") return;
  const jobId = scheduleJob(ctx, ATTEMPT_JOB, { delivery_id: deliveryId }, now, laneOf(webhookId));
  saveDeliveryState(ctx.db, { ...row, next_attempt_at: now, job_id: jobId, updated_at: now });
}

/**
 * Lets an endpoint's held first attempts go, in order, up to the first still held (its extra wait
 * not over, or still waiting to swap); `all` lets every one go (chaos switched off). One that
 * waited for a partner in vain goes as a delay.
 */
function releaseHeld(ctx: DomainContext, webhookId: string, now: number, all = false): void {
  for (let after = Number.NEGATIVE_INFINITY; ; ) {
    const holds = listHoldsAfter(ctx.db, webhookId, after);
    for (const hold of holds) {
      if (!all && ((hold.release_at ?? now) > now || (hold.pair_by ?? now) > now)) return;
      deleteHold(ctx.db, hold.delivery_id);
      if (hold.pair_by !== null) {
        setDeliveryChaos(ctx.db, hold.delivery_id, "delayed");
        logHeld(ctx, hold, "delayed", now - (hold.pair_by - SWAP_WAIT_MS));
      }
      scheduleFirstAttempt(ctx, hold.delivery_id, webhookId, now);
      after = hold.position;
    }
    if (holds.length === 0) return;
  }
}

/** Job `webhook.release`: an endpoint's held first attempts whose time came go. */
export const runRelease: JobHandler = (ctx, job: { webhook_id: string }) =>
  releaseHeld(ctx, job.webhook_id, ctx.clock.now());

/** Lets every held first attempt go at once, in order (chaos switched off). */
export function releaseAllHeld(ctx: DomainContext): void {
  const now = ctx.clock.now();
  ctx.db.transaction(() => {
    for (const webhookId of listHeldEndpoints(ctx.db)) releaseHeld(ctx, webhookId, now, true);
  });
}

/** Forgets an endpoint's held deliveries: it was deleted or paused, and they are abandoned. */
export function forgetHolds(ctx: DomainContext, webhookId: string): void {
  deleteHoldsOf(ctx.db, webhookId);
}
