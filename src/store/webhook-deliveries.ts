import type { Selectable, Updateable } from "kysely";
import type { Db } from "./database.js";
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from "./schema.js";

/** A delivery row as read back. */
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
/** An attempt row as read back. */
export type AttemptRow = Selectable<WebhookAttemptsTable>;
/** A delivery's status. */
export type DeliveryStatus = WebhookDeliveriesTable["status"];

/** Inserts a delivery. */
export function insertDelivery(db: Db, row: WebhookDeliveriesTable): void {
  db.run(db.q.insertInto("webhook_deliveries").values(row));
}

/** A delivery by id, whichever account owns it. */
export function findDelivery(db: Db, id: string): DeliveryRow | undefined {
  return db.first(db.q.selectFrom("webhook_deliveries").selectAll().where("id", "=", id));
}

/** Changes columns of a delivery. */
export function updateDeliveryRow(db: Db, id: string, changes: Updateable<WebhookDeliveriesTable>): void {
  db.run(db.q.updateTable("webhook_deliveries").set(changes).where("id", "=", id));
}

/** Filters of a delivery list. */
export interface DeliveryFilter {
  webhookId?: string;
  status?: DeliveryStatus;
  eventId?: string;
  /** created_at cursor: only deliveries created before it. */
  before?: number;
  limit: number;
}

/** The account's deliveries, newest first. */
export function listDeliveryRows(db: Db, accountId: string, filter: DeliveryFilter): DeliveryRow[] {
  let query = db.q.selectFrom("webhook_deliveries").selectAll().where("account_id", "=", accountId);
  if (filter.webhookId !== undefined) query = query.where("webhook_id", "=", filter.webhookId);
  if (filter.status !== undefined) query = query.where("status", "=", filter.status);
  if (filter.eventId !== undefined) query = query.where("event_id", "=", filter.eventId);
  if (filter.before !== undefined) query = query.where("created_at", "<", filter.before);
  return db.all(query.orderBy("created_at", "desc").limit(filter.limit));
}

/** An endpoint's deliveries still waiting for an attempt. */
export function listPendingDeliveries(db: Db, webhookId: string): DeliveryRow[] {
  return db.all(
    db.q.selectFrom("webhook_deliveries").selectAll().where("webhook_id", "=", webhookId).where("status", "=", "pending"),
  );
}

/** Records one attempt. */
export function insertAttempt(db: Db, row: WebhookAttemptsTable): void {
  db.run(db.q.insertInto("webhook_attempts").values(row));
}

/** How many attempts a delivery has recorded, ladder and resends together. */
export function countAttempts(db: Db, deliveryId: string): number {
  const row = db.first(db.q.selectFrom("webhook_attempts").select((eb) => eb.fn.countAll<number>().as("count")).where("delivery_id", "=", deliveryId));
  return Number(row?.count ?? 0);
}

/** The attempts of some deliveries, in attempt order. */
export function listAttempts(db: Db, deliveryIds: readonly string[]): AttemptRow[] {
  if (deliveryIds.length === 0) return [];
  return db.all(
    db.q.selectFrom("webhook_attempts").selectAll().where("delivery_id", "in", deliveryIds).orderBy("delivery_id").orderBy("n"),
  );
}
