import { chaosLogQuery, type ChaosKind, type ChaosLogEntry, type EventType } from "../../contract/index.js";
import { isoTime } from "../../lib/clock.js";
import { parseInput } from "../../lib/validation.js";
import { insertChaosLog, listChaosLog, type ChaosLogRow } from "../../store/chaos/index.js";
import type { DomainContext } from "../core/index.js";

/** What a log entry says besides its kind: the work it concerns (the rest is null). */
export interface ChaosWork {
  eventId?: string;
  eventType?: string;
  eventNumber?: number;
  webhookId?: string;
  endpointNumber?: number;
  deliveryId?: string;
  messageId?: string;
  messageNumber?: number;
  handle?: string;
  receipt?: "delivered" | "read";
  member?: string;
  delayMs?: number;
}

/** Records a decision that took effect, at the clock's now, in the caller's transaction. */
export function recordChaos(ctx: DomainContext, accountId: string, kind: ChaosKind, work: ChaosWork): void {
  insertChaosLog(ctx.db, {
    account_id: accountId,
    at: ctx.clock.now(),
    kind,
    event_id: work.eventId ?? null,
    event_type: work.eventType ?? null,
    event_number: work.eventNumber ?? null,
    webhook_id: work.webhookId ?? null,
    endpoint_number: work.endpointNumber ?? null,
    delivery_id: work.deliveryId ?? null,
    message_id: work.messageId ?? null,
    message_number: work.messageNumber ?? null,
    number_handle: work.handle ?? null,
    receipt: work.receipt ?? null,
    member: work.member ?? null,
    delay_ms: work.delayMs ?? null,
  });
}

function toEntry(row: ChaosLogRow): ChaosLogEntry {
  return {
    id: row.id,
    at: isoTime(row.at),
    kind: row.kind as ChaosKind,
    event_id: row.event_id,
    event_type: row.event_type as EventType | null,
    event_number: row.event_number,
    webhook_id: row.webhook_id,
    endpoint_number: row.endpoint_number,
    delivery_id: row.delivery_id,
    message_id: row.message_id,
    message_number: row.message_number,
    handle: row.number_handle,
    receipt: row.receipt as ChaosLogEntry["receipt"],
    member: row.member,
    delay_ms: row.delay_ms,
  };
}

/** GET /sandbox/v1/chaos/log: the account's decisions after an id, oldest first (or newest first). */
export function listChaosDecisions(
  ctx: DomainContext,
  accountId: string,
  query: Record<string, string>,
): { data: ChaosLogEntry[]; hasMore: boolean } {
  const { after, limit, order } = parseInput(chaosLogQuery, query, "query");
  const rows = listChaosLog(ctx.db, accountId, after, limit + 1, order === "desc");
  return { data: rows.slice(0, limit).map(toEntry), hasMore: rows.length > limit };
}
