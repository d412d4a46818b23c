import type { Db } from "../engine/db.js";

/** The resource id recorded for an idempotency key on an endpoint, if the key was used. */
export function findIdempotentResource(db: Db, accountId: string, endpoint: string, key: string): string | undefined {
  return db.first(
    db.q
      .selectFrom("idempotency_keys")
      .select("resource_id")
      .where("account_id", "=", accountId)
      .where("endpoint", "=", endpoint)
      .where("key", "=", key),
  )?.resource_id;
}

/** Records that an idempotency key created a resource. */
export function saveIdempotencyKey(
  db: Db,
  row: { account_id: string; endpoint: string; key: string; resource_id: string; created_at: number },
): void {
  db.run(db.q.insertInto("idempotency_keys").values(row));
}
