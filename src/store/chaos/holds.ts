import { sql, type Selectable } from "kysely";
import { allColumns, compileOnce } from "../engine/compiled-query.js";
import type { Db } from "../engine/db.js";
import type { ChaosHoldsTable } from "./tables.js";

/** A held delivery as read back. */
export type HoldRow = Selectable<ChaosHoldsTable>;

/** How many of an endpoint's held deliveries one read returns at most. */
const HOLD_BATCH = 64;

// Every event's fan-out asks these while an endpoint has deliveries held (index chaos_holds_by_webhook).
const afterQuery = compileOnce<[string, number], HoldRow>((q, arg) =>
  q
    .selectFrom("chaos_holds")
    .selectAll()
    .where("webhook_id", "=", arg(0))
    .where("position", ">", arg(1))
    .orderBy("position")
    .limit(sql.lit(HOLD_BATCH)),
);

const lastQuery = compileOnce<[string], HoldRow>((q, arg) =>
  q
    .selectFrom("chaos_holds")
    .selectAll()
    .where("webhook_id", "=", arg(0))
    .orderBy("position", "desc")
    .limit(sql.lit(1)),
);

const beforeQuery = compileOnce<[string, number], HoldRow>((q, arg) =>
  q
    .selectFrom("chaos_holds")
    .selectAll()
    .where("webhook_id", "=", arg(0))
    .where("position", "<", arg(1))
    .orderBy("position", "desc")
    .limit(sql.lit(1)),
);

// Index chaos_holds_waiting: only the (at most one) delivery waiting to swap is in it.
const waitingQuery = compileOnce<[string], HoldRow>((q, arg) =>
  q
    .selectFrom("chaos_holds")
    .selectAll()
    .where("webhook_id", "=", arg(0))
    .where("pair_by", "is not", null)
    .limit(sql.lit(1)),
);

/** An endpoint's held deliveries after a position, in the order they will go out, a batch at a time. */
export function listHoldsAfter(db: Db, webhookId: string, position: number): HoldRow[] {
  return db.all(afterQuery(webhookId, position));
}

/** The endpoint's held delivery that goes last, if any. */
export function lastHold(db: Db, webhookId: string): HoldRow | undefined {
  return db.first(lastQuery(webhookId));
}

/** The endpoint's held delivery just before a position, if any. */
export function holdBefore(db: Db, webhookId: string, position: number): HoldRow | undefined {
  return db.first(beforeQuery(webhookId, position));
}

/** The endpoint's held delivery that waits to swap with the next one, if any (there is at most one). */
export function waitingHold(db: Db, webhookId: string): HoldRow | undefined {
  return db.first(waitingQuery(webhookId));
}

/** The endpoints that have held deliveries. */
export function listHeldEndpoints(db: Db): string[] {
  return db.all(db.q.selectFrom("chaos_holds").select("webhook_id").distinct()).map((row) => row.webhook_id);
}

const HOLD_COLUMNS = allColumns<ChaosHoldsTable>()([
  "delivery_id",
  "account_id",
  "webhook_id",
  "event_number",
  "position",
  "release_at",
  "pair_by",
]);

const insertQuery = compileOnce<unknown[], unknown>((q, arg) =>
  q
    .insertInto("chaos_holds")
    .values(Object.fromEntries(HOLD_COLUMNS.map((column, i) => [column, arg(i)])) as ChaosHoldsTable),
);

/** Holds a delivery back. */
export function insertHold(db: Db, row: HoldRow): void {
  db.run(insertQuery(...HOLD_COLUMNS.map((column) => row[column])));
}

const pairedUpdate = compileOnce<[string], unknown>((q, arg) =>
  q.updateTable("chaos_holds").set({ pair_by: null }).where("delivery_id", "=", arg(0)),
);

/** A held delivery waiting to swap found its partner: it waits no longer for one. */
export function markHoldPaired(db: Db, deliveryId: string): void {
  db.run(pairedUpdate(deliveryId));
}

const deleteQuery = compileOnce<[string], unknown>((q, arg) =>
  q.deleteFrom("chaos_holds").where("delivery_id", "=", arg(0)),
);

/** Lets a delivery go (its first attempt is scheduled, or it is no longer pending). */
export function deleteHold(db: Db, deliveryId: string): void {
  db.run(deleteQuery(deliveryId));
}

/** Forgets an endpoint's held deliveries (it was deleted or paused: they are abandoned). */
export function deleteHoldsOf(db: Db, webhookId: string): void {
  db.run(db.q.deleteFrom("chaos_holds").where("webhook_id", "=", webhookId));
}
