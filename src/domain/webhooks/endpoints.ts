import type { JsonObject } from "../../contract/common.js";
import {
  createWebhookBody as createBody,
  EVENT_TYPES,
  listWebhooksQuery as listQuery,
  updateWebhookBody as updateBody,
  type CreatedWebhook,
  type EventType,
  type WebhookResource,
  type WebhookWithSecret,
} from "../../contract/index.js";
import { invalidState, notFound } from "../../lib/app-error.js";
import { isoTime } from "../../lib/clock.js";
import { isUuid } from "../../lib/ids.js";
import { parseInput } from "../../lib/validation.js";
import { findIdempotentResource, saveIdempotencyKey } from "../../store/core/index.js";
import {
  findLiveWebhook,
  findWebhookById,
  insertWebhook,
  listLiveWebhooks,
  updateWebhookRow,
  type WebhookRow,
} from "../../store/webhooks/index.js";
import { nextListTime, type DomainContext } from "../core/index.js";
import { preloadDeliveryAgent } from "./connections.js";
import { abandonPendingDeliveries, forgetSubscribers } from "./deliveries.js";
import { checkWebhookUrl } from "./url-policy.js";

export type { CreatedWebhook, WebhookWithSecret };

/** A webhook endpoint as every read returns it: never with its secret. */
export type WebhookView = WebhookResource;

const IDEMPOTENCY_ENDPOINT = "POST /v1/webhooks";

// --- Views ---

/** The public view of an endpoint row. */
function toWebhookView(row: WebhookRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as EventType[],
    enabled: row.enabled === 1,
    created_at: isoTime(row.created_at),
    // Never before created_at, which a busy virtual millisecond bumps ahead of the clock.
    updated_at: isoTime(Math.max(row.updated_at, row.created_at)),
  };
}

const withSecret = (row: WebhookRow): WebhookWithSecret => ({ ...toWebhookView(row), secret: row.secret });

const generateSecret = (ctx: DomainContext) => `whsec_${ctx.ids.token(32)}`;

function liveWebhookOr404(ctx: DomainContext, accountId: string, id: string): WebhookRow {
  const row = isUuid(id) ? findLiveWebhook(ctx.db, accountId, id) : undefined;
  if (!row) throw notFound(`Webhook ${id}`);
  return row;
}

function createdAnswer(ctx: DomainContext, accountId: string, row: WebhookRow): CreatedWebhook {
  const others = listLiveWebhooks(ctx.db, accountId, { excludeId: row.id }).map(toWebhookView);
  return { ...withSecret(row), other_webhooks: others };
}

/** The endpoint an earlier request with this key created, as a replay answer. */
function replay(ctx: DomainContext, accountId: string, key: string): CreatedWebhook | undefined {
  const id = findIdempotentResource(ctx.db, accountId, IDEMPOTENCY_ENDPOINT, key);
  if (!id) return undefined;
  const row = findWebhookById(ctx.db, id);
  if (!row || row.deleted_at !== null) {
    throw invalidState(
      `The webhook created with this Idempotency-Key (${id}) has been deleted; use a new key to create another`,
    );
  }
  return createdAnswer(ctx, accountId, row);
}

// --- Operations (spec 4.4) ---

/**
 * POST /v1/webhooks: creates an endpoint (201). A repeated Idempotency-Key returns the endpoint
 * it created, secret included, and `replayed: true` (200), whatever the new body says.
 */
export async function createWebhook(
  ctx: DomainContext,
  accountId: string,
  body: JsonObject,
  key?: string,
): Promise<{ webhook: CreatedWebhook; replayed: boolean }> {
  const earlier = key === undefined ? undefined : replay(ctx, accountId, key);
  if (earlier) return { webhook: earlier, replayed: true };

  const input = parseInput(createBody, body);
  const url = await checkWebhookUrl(ctx, input.url);

  return ctx.db.transaction(() => {
    // Another request with the same key may have finished while the URL was being resolved.
    const raced = key === undefined ? undefined : replay(ctx, accountId, key);
    if (raced) return { webhook: raced, replayed: true };
    const now = nextListTime(ctx, "webhooks", accountId);
    const row: WebhookRow = {
      id: ctx.ids.uuid(),
      account_id: accountId,
      url,
      events: JSON.stringify(input.events ?? EVENT_TYPES),
      secret: input.secret ?? generateSecret(ctx),
      enabled: 1,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    insertWebhook(ctx.db, row);
    forgetSubscribers(ctx, accountId);
    preloadDeliveryAgent(ctx);
    if (key !== undefined) {
      saveIdempotencyKey(ctx.db, {
        account_id: accountId,
        endpoint: IDEMPOTENCY_ENDPOINT,
        key,
        resource_id: row.id,
        created_at: now,
      });
    }
    return { webhook: createdAnswer(ctx, accountId, row), replayed: false };
  });
}

/** GET /v1/webhooks: the account's endpoints, newest first, without secrets. */
export function listWebhooks(
  ctx: DomainContext,
  accountId: string,
  query: Record<string, string>,
): { data: WebhookView[]; hasMore: boolean } {
  const { limit, before } = parseInput(listQuery, query, "query");
  const rows = listLiveWebhooks(ctx.db, accountId, { limit: limit + 1, before });
  return { data: rows.slice(0, limit).map(toWebhookView), hasMore: rows.length > limit };
}

/** GET /v1/webhooks/:id, without the secret. */
export function getWebhook(ctx: DomainContext, accountId: string, id: string): WebhookView {
  return toWebhookView(liveWebhookOr404(ctx, accountId, id));
}

/**
 * PATCH /v1/webhooks/:id: changes only the fields sent; never echoes the secret. Pausing
 * (`enabled: false`) abandons the endpoint's pending deliveries: a paused endpoint gets nothing.
 */
export async function updateWebhook(
  ctx: DomainContext,
  accountId: string,
  id: string,
  body: JsonObject,
): Promise<WebhookView> {
  liveWebhookOr404(ctx, accountId, id);
  const input = parseInput(updateBody, body);
  const url = input.url === undefined ? undefined : await checkWebhookUrl(ctx, input.url);

  return ctx.db.transaction(() => {
    // Re-read: the endpoint may have been deleted or changed while the URL was resolved.
    const row = liveWebhookOr404(ctx, accountId, id);
    const changes: Partial<WebhookRow> = {};
    if (url !== undefined && url !== row.url) changes.url = url;
    if (input.events !== undefined && JSON.stringify(input.events) !== row.events)
      changes.events = JSON.stringify(input.events);
    if (input.secret !== undefined && input.secret !== row.secret) changes.secret = input.secret;
    if (input.enabled !== undefined && (input.enabled ? 1 : 0) !== row.enabled) changes.enabled = input.enabled ? 1 : 0;
    if (Object.keys(changes).length === 0) return toWebhookView(row);
    const now = ctx.clock.now();
    updateWebhookRow(ctx.db, id, { ...changes, updated_at: now });
    forgetSubscribers(ctx, accountId);
    if (changes.enabled === 0) abandonPendingDeliveries(ctx, id, now);
    return toWebhookView({ ...row, ...changes, updated_at: now });
  });
}

/** POST /v1/webhooks/:id/rotate-secret: a new generated secret, used from the next attempt on. */
export function rotateWebhookSecret(ctx: DomainContext, accountId: string, id: string): WebhookWithSecret {
  return ctx.db.transaction(() => {
    const row = liveWebhookOr404(ctx, accountId, id);
    const secret = generateSecret(ctx);
    const now = ctx.clock.now();
    updateWebhookRow(ctx.db, id, { secret, updated_at: now });
    return withSecret({ ...row, secret, updated_at: now });
  });
}

/**
 * DELETE /v1/webhooks/:id: deliveries stop at once; pending ones become `abandoned` and their
 * jobs are removed. The row stays (marked deleted) so its deliveries stay listed.
 */
export function deleteWebhook(ctx: DomainContext, accountId: string, id: string): { id: string; deleted: true } {
  return ctx.db.transaction(() => {
    liveWebhookOr404(ctx, accountId, id);
    const now = ctx.clock.now();
    updateWebhookRow(ctx.db, id, { deleted_at: now, updated_at: now });
    forgetSubscribers(ctx, accountId);
    abandonPendingDeliveries(ctx, id, now);
    return { id, deleted: true as const };
  });
}

/** True when the id is one of the account's endpoints, deleted ones included (query filters). */
export function isAccountWebhook(ctx: DomainContext, accountId: string, id: string): boolean {
  if (!isUuid(id)) return false;
  const row = findWebhookById(ctx.db, id);
  return row?.account_id === accountId;
}
