import type { Db } from "./database.js";

/**
 * The lists that page on a timestamp, each with its table (SANDBOX.md section 5). `otp_texts` is
 * one list for the whole sandbox (the OTP numbers' threads belong to the simulated world), so its
 * scope key is ignored.
 */
export type PagedList = "messages" | "webhooks" | "deliveries" | "otp_texts";

/** The newest `created_at` of an account's list, or undefined when it is empty. */
export function latestCreatedAt(db: Db, list: PagedList, accountId: string): number | undefined {
  const row =
    list === "messages"
      ? db.first(db.q.selectFrom("messages").select((eb) => eb.fn.max("created_at").as("latest")).where("account_id", "=", accountId))
      : list === "webhooks"
        ? db.first(db.q.selectFrom("webhooks").select((eb) => eb.fn.max("created_at").as("latest")).where("account_id", "=", accountId))
        : list === "deliveries"
          ? db.first(db.q.selectFrom("webhook_deliveries").select((eb) => eb.fn.max("created_at").as("latest")).where("account_id", "=", accountId))
          : db.first(db.q.selectFrom("otp_texts").select((eb) => eb.fn.max("created_at").as("latest")));
  return row?.latest ?? undefined;
}
