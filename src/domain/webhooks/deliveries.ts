import {
  listDeliveriesQuery as listQuery,
  type Delivery,
  type DeliveryAttempt,
  type EventType,
} from "../../contract/index.js";
import { invalidRequest, notFound } from "../../lib/app-error.js";
import { isoTime, isoTimeOrNull } from "../../lib/clock.js";
import { isUuid } from "../../lib/ids.js";
import { parseInput } from "../../lib/validation.js";
import { findEvent, deleteJob, type JobRow } from "../../store/core/index.js";
import {
  findAttemptWork,
  findDelivery,
  listAttempts,
  listDeliveryRows,
  listPendingDeliveries,
  type AttemptRow,
  type DeliveryRow,
  findWebhookById,
  listEnabledWebhooks,
} from "../../store/webhooks/index.js";
import { activeChaos } from "../chaos/index.js";
import { cacheOf, type DomainContext, type EmittedEvent } from "../core/index.js";
import { fanOutWithChaos, forgetHolds } from "./chaos-deliveries.js";
import { preloadDeliveryAgent } from "./connections.js";
import { applyDeliveryTransition } from "./delivery-states.js";
import { ATTEMPT_JOB, createDelivery } from "./new-delivery.js";

/** One attempt as shown: `at` is the virtual instant it started, `duration_ms` real time. */
export type AttemptView = DeliveryAttempt;

/** A delivery as `webhooks deliveries` and the control API show it. */
export type DeliveryView = Delivery;

const attemptView = (row: AttemptRow): AttemptView => ({
  n: row.n,
  at: isoTime(row.at),
  status_code: row.status_code,
  error: row.error,
  duration_ms: row.duration_ms,
  resend: row.resend === 1,
  signature: row.signature,
});

/** Views of delivery rows with their attempts. */
function toDeliveryViews(ctx: DomainContext, rows: DeliveryRow[]): DeliveryView[] {
  const attempts = new Map<string, AttemptView[]>();
  for (const row of listAttempts(
    ctx.db,
    rows.map((r) => r.id),
  )) {
    attempts.set(row.delivery_id, [...(attempts.get(row.delivery_id) ?? []), attemptView(row)]);
  }
  return rows.map((row) => ({
    id: row.id,
    webhook_id: row.webhook_id,
    event_id: row.event_id,
    event_type: row.event_type as EventType,
    status: row.status,
    attempts: attempts.get(row.id) ?? [],
    next_attempt_at: isoTimeOrNull(row.next_attempt_at),
    created_at: isoTime(row.created_at),
    chaos: row.chaos,
  }));
}

/** One delivery's view by id (any account), for the engine. */
export function deliveryView(ctx: DomainContext, id: string): DeliveryView | undefined {
  const row = findDelivery(ctx.db, id);
  return row ? toDeliveryViews(ctx, [row])[0] : undefined;
}

// --- Fan-out (runs inside every event's transaction) ---

/** An enabled endpoint and the event names it subscribes to. */
export interface Subscriber {
  id: string;
  events: ReadonlySet<string>;
}

const SUBSCRIBERS = "webhook-subscribers";

/** The account's enabled endpoints in creation order, remembered until they change (every event asks). */
function subscribersOf(ctx: DomainContext, accountId: string): readonly Subscriber[] {
  const cache = cacheOf<string, Subscriber[]>(ctx, SUBSCRIBERS);
  let found = cache.get(accountId);
  if (!found) {
    found = listEnabledWebhooks(ctx.db, accountId).map((row) => ({
      id: row.id,
      events: new Set(JSON.parse(row.events) as string[]),
    }));
    cache.set(accountId, found);
    if (found.length > 0) preloadDeliveryAgent(ctx);
  }
  return found;
}

/** Forgets an account's endpoints after a write to one of them (create, PATCH, delete). */
export function forgetSubscribers(ctx: DomainContext, accountId: string): void {
  cacheOf(ctx, SUBSCRIBERS).delete(accountId);
}

/**
 * Creates one delivery and its first-attempt job for every enabled endpoint of the event's
 * account that subscribes to its type (spec section 6). The webhooks module's fan-out. With
 * seeded chaos on, chaos-deliveries.ts decides on each delivery instead.
 */
export function fanOutToWebhooks(ctx: DomainContext, event: EmittedEvent): void {
  const chaos = activeChaos(ctx);
  if (chaos) return fanOutWithChaos(ctx, chaos, event, subscribersOf(ctx, event.accountId));
  const subscribers = subscribersOf(ctx, event.accountId);
  if (subscribers.length === 0) return;
  const now = ctx.clock.now();
  for (const webhook of subscribers) {
    if (!webhook.events.has(event.type)) continue;
    createDelivery(ctx, event, webhook.id, { firstAttemptAt: now, lane: true, chaos: null });
  }
}

/** Marks an endpoint's pending deliveries `abandoned` and removes their jobs (delete, pause). */
export function abandonPendingDeliveries(ctx: DomainContext, webhookId: string, at: number): number {
  const pending = listPendingDeliveries(ctx.db, webhookId);
  forgetHolds(ctx, webhookId);
  for (const delivery of pending) {
    if (delivery.job_id !== null) deleteJob(ctx.db, delivery.job_id);
    applyDeliveryTransition(ctx, delivery, "abandoned", { at });
  }
  return pending.length;
}

/** A delivery attempt a job will make: the delivery's id and its endpoint's URL. */
export interface AttemptTarget {
  deliveryId: string;
  url: string;
}

/** The delivery and endpoint URL of a job, or undefined when it is not a delivery attempt (or its delivery is gone). */
export function attemptTargetOf(ctx: DomainContext, job: Pick<JobRow, "kind" | "payload">): AttemptTarget | undefined {
  if (job.kind !== ATTEMPT_JOB) return undefined;
  const deliveryId = (JSON.parse(job.payload) as { delivery_id?: string }).delivery_id;
  const work = deliveryId === undefined ? undefined : findAttemptWork(ctx.db, deliveryId);
  return deliveryId && work ? { deliveryId, url: work.url } : undefined;
}

// --- Reads (control API) ---

/** The account's deliveries, newest first, filtered by endpoint, status or event. */
export function listDeliveries(
  ctx: DomainContext,
  accountId: string,
  query: Record<string, string>,
): { data: DeliveryView[]; hasMore: boolean } {
  const input = parseInput(listQuery, query, "query");
  if (input.webhook_id !== undefined) {
    const webhook = isUuid(input.webhook_id) ? findWebhookById(ctx.db, input.webhook_id) : undefined;
    if (webhook?.account_id !== accountId)
      throw invalidRequest(`webhook_id: no webhook ${input.webhook_id} in this account`);
  }
  // An unknown id in a filter is a mistake to say, not an empty page.
  const eventId = input.event_id?.toLowerCase();
  if (eventId !== undefined) {
    const event = isUuid(eventId) ? findEvent(ctx.db, eventId) : undefined;
    if (event?.account_id !== accountId) throw invalidRequest(`event_id: no event ${input.event_id} in this account`);
  }
  const rows = listDeliveryRows(ctx.db, accountId, {
    webhookId: input.webhook_id,
    status: input.status,
    eventId,
    before: input.before,
    limit: input.limit + 1,
  });
  return { data: toDeliveryViews(ctx, rows.slice(0, input.limit)), hasMore: rows.length > input.limit };
}

/** Every delivery of one of the account's events (one per endpoint subscribed when it was emitted), with their attempts. */
export function listEventDeliveries(ctx: DomainContext, accountId: string, eventId: string): DeliveryView[] {
  return toDeliveryViews(ctx, listDeliveryRows(ctx.db, accountId, { eventId, limit: Number.MAX_SAFE_INTEGER }));
}

/** One of the account's delivery rows; 404 for unknown, malformed or another account's ids. */
function deliveryRowOf(ctx: DomainContext, accountId: string, id: string): DeliveryRow {
  const row = isUuid(id) ? findDelivery(ctx.db, id) : undefined;
  if (!row || row.account_id !== accountId) throw notFound(`Delivery ${id}`);
  return row;
}

/** One of the account's deliveries; 404 for unknown, malformed or another account's ids. */
export function getDelivery(ctx: DomainContext, accountId: string, id: string): DeliveryView {
  return toDeliveryViews(ctx, [deliveryRowOf(ctx, accountId, id)])[0] as DeliveryView;
}

/**
 * The body every attempt of a delivery POSTs, byte for byte: its event's payload as stored, the
 * bytes its signature covers (what `webhooks verify --body-file` takes).
 */
export function getDeliveryBody(ctx: DomainContext, accountId: string, id: string): string {
  const row = deliveryRowOf(ctx, accountId, id);
  const event = findEvent(ctx.db, row.event_id);
  if (!event) throw notFound(`The event of delivery ${id}`);
  return event.payload;
}
