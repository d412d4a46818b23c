import type { Selectable, Updateable } from "kysely";
import { compileOnce } from "../engine/compiled-query.js";
import type { Db } from "../engine/db.js";
import type { WebhooksTable } from "./tables.js";

/** A webhook endpoint row as read back. */
export type WebhookRow = Selectable<WebhooksTable>;

/** Inserts an endpoint. */
export function insertWebhook(db: Db, row: WebhooksTable): void {
  db.run(db.q.insertInto("webhooks").values(row));
}

/** The account's live (not deleted) endpoint with this id. */
export function findLiveWebhook(db: Db, accountId: string, id: string): WebhookRow | undefined {
  return db.first(
    db.q
      .selectFrom("webhooks")
      .selectAll()
      .where("id", "=", id)
      .where("account_id", "=", accountId)
      .where("deleted_at", "is", null),
  );
}

/** An endpoint by id, deleted or not, whichever account owns it (delivery attempts). */
export function findWebhookById(db: Db, id: string): WebhookRow | undefined {
  return db.first(db.q.selectFrom("webhooks").selectAll().where("id", "=", id));
}

/** The account's live endpoints, newest first; `before` is a created_at cursor. */
export function listLiveWebhooks(
  db: Db,
  accountId: string,
  options: { limit?: number; before?: number; excludeId?: string } = {},
): WebhookRow[] {
  let query = db.q
    .selectFrom("webhooks")
    .selectAll()
    .where("account_id", "=", accountId)
    .where("deleted_at", "is", null);
  if (options.before !== undefined) query = query.where("created_at", "<", options.before);
  if (options.excludeId !== undefined) query = query.where("id", "!=", options.excludeId);
  query = query.orderBy("created_at", "desc");
  if (options.limit !== undefined) query = query.limit(options.limit);
  return db.all(query);
}

const enabledQuery = compileOnce<[string], WebhookRow>((q, arg) =>
  q
    .selectFrom("webhooks")
    .selectAll()
    .where("account_id", "=", arg(0))
    .where("enabled", "=", 1)
    .where("deleted_at", "is", null)
    .orderBy("created_at"),
);

/** The account's enabled, live endpoints in creation order (fan-out). */
export function listEnabledWebhooks(db: Db, accountId: string): WebhookRow[] {
  return db.all(enabledQuery(accountId));
}

/** Changes columns of an endpoint. */
export function updateWebhookRow(db: Db, id: string, changes: Updateable<WebhooksTable>): void {
  db.run(db.q.updateTable("webhooks").set(changes).where("id", "=", id));
}
