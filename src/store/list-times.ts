import type { Db } from "./database.js";

/** The lists that page on a timestamp, each with its table (SANDBOX.md section 5). */
export type PagedList = "messages" | "webhooks" | "deliveries";

/** The newest `created_at` of an account's list, or undefined when it is empty. */
export function latestCreatedAt(db: Db, list: PagedList, accountId: string): number | undefined {
  const row =
    list === "messages"
      ? db.first(db.q.selectFrom("messages").select((eb) => eb.fn.max("created_at").as("latest")).where("account_id", "=", accountId))
      : list === "webhooks"
        ? db.first(db.q.selectFrom("webhooks").select((eb) => eb.fn.max("created_at").as("latest")).where("account_id", "=", accountId))
        : db.first(db.q.selectFrom("webhook_deliveries").select((eb) => eb.fn.max("created_at").as("latest")).where("account_id", "=", accountId));
  return row?.latest ?? undefined;
}
