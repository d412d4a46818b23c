import type { Db } from "../engine/db.js";

/**
 * The lists that page on a timestamp, each with its table. `otp_texts` is
 * one list for the whole sandbox (the OTP numbers' threads belong to the simulated world), so its
 * scope key is ignored.
 */
export type PagedList = "messages" | "webhooks" | "deliveries" | "otp_texts";

/** The newest `created_at` of an account's list, or undefined when it is empty. */
export function latestCreatedAt(db: Db, list: PagedList, accountId: string): number | undefined {
  if (list === "messages") {
    const message = db.first(
      db.q
        .selectFrom("messages")
        .select((eb) => eb.fn.max("created_at").as("latest"))
        .where("account_id", "=", accountId),
    );
    // A created group's last_message_at takes a place in this list too (its opening message is not recorded).
    const chat = db.first(
      db.q
        .selectFrom("conversations")
        .select((eb) => eb.fn.max("last_message_at").as("latest"))
        .where("account_id", "=", accountId),
    );
    const times = [message?.latest, chat?.latest].filter((time): time is number => typeof time === "number");
    return times.length > 0 ? Math.max(...times) : undefined;
  }
  const row =
    list === "webhooks"
      ? db.first(
          db.q
            .selectFrom("webhooks")
            .select((eb) => eb.fn.max("created_at").as("latest"))
            .where("account_id", "=", accountId),
        )
      : list === "deliveries"
        ? db.first(
            db.q
              .selectFrom("webhook_deliveries")
              .select((eb) => eb.fn.max("created_at").as("latest"))
              .where("account_id", "=", accountId),
          )
        : db.first(db.q.selectFrom("otp_texts").select((eb) => eb.fn.max("created_at").as("latest")));
  return row?.latest ?? undefined;
}
