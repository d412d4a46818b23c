import { sql } from "kysely";
import { compileOnce } from "../engine/compiled-query.js";
import type { Db } from "../engine/db.js";
import type { DeliveryRow } from "./deliveries.js";
import type { WebhookAttemptsTable } from "./tables.js";

/*
 * An attempt's record in two statements instead of four: an attempt read its delivery before the
 * POST and again after it (a resend, reset or restore may have moved it meanwhile), then wrote the
 * attempt and the delivery. The delivery's move now checks in its WHERE that it is still pending,
 * and the attempt takes its number from the attempts recorded by then (bench/HISTORY.md).
 */

const pendingUpdate = compileOnce<[string, number, number | null, number | null, number, string], unknown>((q, arg) =>
  q
    .updateTable("webhook_deliveries")
    .set({ status: arg(0), attempt_count: arg(1), next_attempt_at: arg(2), job_id: arg(3), updated_at: arg(4) })
    .where("id", "=", arg(5))
    .where("status", "=", "pending"),
);

/**
 * Writes a delivery's moving columns only while it is still pending; false (nothing written) when
 * it is gone or no longer pending.
 */
export function savePendingDeliveryState(
  db: Db,
  row: Pick<DeliveryRow, "id" | "status" | "attempt_count" | "next_attempt_at" | "job_id" | "updated_at">,
): boolean {
  return (
    db.run(pendingUpdate(row.status, row.attempt_count, row.next_attempt_at, row.job_id, row.updated_at, row.id))
      .changes === 1
  );
}

const insertNextQuery = compileOnce<
  [string, number, number | null, string | null, number, number, string | null],
  unknown
>((q, arg) =>
  q.insertInto("webhook_attempts").values({
    delivery_id: arg(0),
    n: sql<number>`(select count(*) from "webhook_attempts" where "delivery_id" = ${arg(0)}) + 1`,
    at: arg(1),
    status_code: arg(2),
    error: arg(3),
    duration_ms: arg(4),
    resend: arg(5),
    signature: arg(6),
  }),
);

/** Records an attempt as the delivery's next one: its number is one more than the attempts recorded so far. */
export function insertNextAttempt(db: Db, row: Omit<WebhookAttemptsTable, "n">): void {
  db.run(
    insertNextQuery(
      row.delivery_id,
      row.at,
      row.status_code,
      row.error,
      row.duration_ms,
      row.resend,
      row.signature ?? null,
    ),
  );
}
