import type { Selectable } from "kysely";
import { allColumns, compileOnce } from "../engine/compiled-query.js";
import type { Db } from "../engine/db.js";
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from "./tables.js";

/** A delivery row as read back. */
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
/** An attempt row as read back. */
export type AttemptRow = Selectable<WebhookAttemptsTable>;
/** A delivery's status. */
export type DeliveryStatus = WebhookDeliveriesTable["status"];

// Every event's fan-out and every attempt read and write these: compiled once (bench/HISTORY.md).
const DELIVERY_COLUMNS = allColumns<WebhookDeliveriesTable>()([
  "id",
  "account_id",
  "webhook_id",
  "event_id",
  "event_type",
  "status",
  "attempt_count",
  "next_attempt_at",
  "job_id",
  "chaos",
  "created_at",
  "updated_at",
]);

const insertQuery = compileOnce<unknown[], unknown>((q, arg) =>
  q
    .insertInto("webhook_deliveries")
    .values(Object.fromEntries(DELIVERY_COLUMNS.map((column, i) => [column, arg(i)])) as WebhookDeliveriesTable),
);

/** Inserts a delivery. */
export function insertDelivery(db: Db, row: WebhookDeliveriesTable): void {
  db.run(insertQuery(...DELIVERY_COLUMNS.map((column) => row[column])));
}

const byId = compileOnce<[string], DeliveryRow>((q, arg) =>
  q.selectFrom("webhook_deliveries").selectAll().where("id", "=", arg(0)),
);

/** A delivery by id, whichever account owns it. */
export function findDelivery(db: Db, id: string): DeliveryRow | undefined {
  return db.first(byId(id));
}

const byIdWithAttempts = compileOnce<[string], DeliveryRow & { attempts_made: number }>((q, arg) =>
  q
    .selectFrom("webhook_deliveries as d")
    .selectAll("d")
    .select((eb) =>
      eb
        .selectFrom("webhook_attempts as a")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("a.delivery_id", "=", "d.id")
        .as("attempts_made"),
    )
    .where("d.id", "=", arg(0)),
);

/** A delivery with the number of attempts it has recorded (ladder and resends), in one read (every attempt's record). */
export function findDeliveryWithAttempts(db: Db, id: string): (DeliveryRow & { attempts_made: number }) | undefined {
  return db.first(byIdWithAttempts(id));
}

/** What an attempt needs: its delivery, the endpoint as it is now, and the event's payload (null once gone). */
export interface AttemptWork {
  status: DeliveryStatus;
  /** Ladder attempts so far (resends not counted). */
  attempt_count: number;
  account_id: string;
  webhook_id: string;
  event_id: string;
  /** The chaos that touched the delivery (its first attempt, or every attempt of a copy). */
  chaos: DeliveryRow["chaos"];
  url: string;
  secret: string;
  enabled: number;
  deleted_at: number | null;
  payload: string | null;
}

const attemptWorkQuery = compileOnce<[string], AttemptWork>((q, arg) =>
  q
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhooks as w", "w.id", "d.webhook_id")
    .leftJoin("events as e", "e.id", "d.event_id")
    .select([
      "d.status",
      "d.attempt_count",
      "d.account_id",
      "d.webhook_id",
      "d.event_id",
      "d.chaos",
      "w.url",
      "w.secret",
      "w.enabled",
      "w.deleted_at",
      "e.payload",
    ])
    .where("d.id", "=", arg(0)),
);

/** A delivery with its endpoint and event, in one read (every attempt). */
export function findAttemptWork(db: Db, deliveryId: string): AttemptWork | undefined {
  return db.first(attemptWorkQuery(deliveryId));
}

const stateUpdate = compileOnce<[string, number, number | null, number | null, number, string], unknown>((q, arg) =>
  q
    .updateTable("webhook_deliveries")
    .set({ status: arg(0), attempt_count: arg(1), next_attempt_at: arg(2), job_id: arg(3), updated_at: arg(4) })
    .where("id", "=", arg(5)),
);

/** Writes a delivery's moving columns (every attempt). */
export function saveDeliveryState(
  db: Db,
  row: Pick<DeliveryRow, "id" | "status" | "attempt_count" | "next_attempt_at" | "job_id" | "updated_at">,
): void {
  db.run(stateUpdate(row.status, row.attempt_count, row.next_attempt_at, row.job_id, row.updated_at, row.id));
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
    db.q
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("webhook_id", "=", webhookId)
      .where("status", "=", "pending"),
  );
}

const insertAttemptQuery = compileOnce<
  [string, number, number, number | null, string | null, number, number, string | null],
  unknown
>((q, arg) =>
  q.insertInto("webhook_attempts").values({
    delivery_id: arg(0),
    n: arg(1),
    at: arg(2),
    status_code: arg(3),
    error: arg(4),
    duration_ms: arg(5),
    resend: arg(6),
    signature: arg(7),
  }),
);

/** Records one attempt. */
export function insertAttempt(db: Db, row: WebhookAttemptsTable): void {
  db.run(
    insertAttemptQuery(
      row.delivery_id,
      row.n,
      row.at,
      row.status_code,
      row.error,
      row.duration_ms,
      row.resend,
      row.signature ?? null,
    ),
  );
}

const countAttemptsQuery = compileOnce<[string], { count: number }>((q, arg) =>
  q
    .selectFrom("webhook_attempts")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("delivery_id", "=", arg(0)),
);

/** How many attempts a delivery has recorded, ladder and resends together. */
export function countAttempts(db: Db, deliveryId: string): number {
  return Number(db.first(countAttemptsQuery(deliveryId))?.count ?? 0);
}

/** The attempts of some deliveries, in attempt order. */
export function listAttempts(db: Db, deliveryIds: readonly string[]): AttemptRow[] {
  if (deliveryIds.length === 0) return [];
  return db.all(
    db.q
      .selectFrom("webhook_attempts")
      .selectAll()
      .where("delivery_id", "in", deliveryIds)
      .orderBy("delivery_id")
      .orderBy("n"),
  );
}

/** Records what chaos made of a delivery (a swap that found no partner went as a delay). */
export function setDeliveryChaos(db: Db, id: string, chaos: DeliveryRow["chaos"]): void {
  db.run(db.q.updateTable("webhook_deliveries").set({ chaos }).where("id", "=", id));
}
