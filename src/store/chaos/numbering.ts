import { sql } from "kysely";
import { compileOnce } from "../engine/compiled-query.js";
import type { Db } from "../engine/db.js";
import type { ChaosCountersTable } from "./tables.js";

const nextValueQuery = compileOnce<[string, string], { value: number }>((q, arg) =>
  q
    .insertInto("chaos_counters")
    .values({ account_id: arg(0), kind: arg(1), value: 1 })
    .onConflict((oc) => oc.columns(["account_id", "kind"]).doUpdateSet({ value: sql`value + 1` }))
    .returning("value"),
);

/** The next number of the account's events or messages (1 for the first since chaos was switched on). */
export function nextNumber(db: Db, accountId: string, kind: ChaosCountersTable["kind"]): number {
  return Number(db.first(nextValueQuery(accountId, kind))?.value);
}

const messageNumberQuery = compileOnce<[string], { number: number }>((q, arg) =>
  q.selectFrom("chaos_messages").select("number").where("message_id", "=", arg(0)),
);

/** The number a message was given, if it was given one. */
export function findMessageNumber(db: Db, messageId: string): number | undefined {
  return db.first(messageNumberQuery(messageId))?.number;
}

/** Records the number a message was given. */
export function saveMessageNumber(db: Db, row: { message_id: string; account_id: string; number: number }): void {
  db.run(db.q.insertInto("chaos_messages").values(row));
}

/**
 * An endpoint's place among its account's endpoints, deleted ones included, in creation order
 * (1 for the first): its identity across runs, where its id and URL differ.
 */
export function endpointNumber(db: Db, webhookId: string): number {
  const row = db.first(
    db.q
      .selectFrom("webhooks as w")
      .innerJoin("webhooks as mine", "mine.account_id", "w.account_id")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("mine.id", "=", webhookId)
      .where(sql<boolean>`w.rowid <= mine.rowid`),
  );
  return Number(row?.n ?? 0);
}
