import type { Insertable, Selectable } from "kysely";
import { compileOnce } from "../engine/compiled-query.js";
import type { Db } from "../engine/db.js";
import type { EventsTable } from "./tables.js";

/** An event row as read back. */
export type EventRow = Selectable<EventsTable>;

const insertEventQuery = compileOnce((q, arg) =>
  q.insertInto("events").values({ id: arg(0), account_id: arg(1), type: arg(2), payload: arg(3), created_at: arg(4) }),
);

/** Appends an event to the outbox; returns its sequence number. */
export function insertEvent(db: Db, row: Insertable<EventsTable>): number {
  return db.run(insertEventQuery(row.id, row.account_id, row.type, row.payload, row.created_at)).lastInsertRowid;
}

/** Which events a list reads: one account's only, some types only, newest first. */
export interface EventFilter {
  accountId?: string;
  types?: readonly string[];
  newestFirst?: boolean;
}

/** Events after a sequence number, oldest first unless `newestFirst`; the limit counts matching events. */
export function listEventsAfter(db: Db, afterSeq: number, limit: number, filter: EventFilter = {}): EventRow[] {
  let query = db.q.selectFrom("events").selectAll().where("seq", ">", afterSeq);
  if (filter.accountId) query = query.where("account_id", "=", filter.accountId);
  if (filter.types) query = query.where("type", "in", filter.types);
  return db.all(query.orderBy("seq", filter.newestFirst ? "desc" : "asc").limit(limit));
}

/** One event by id. */
export function findEvent(db: Db, id: string): EventRow | undefined {
  return db.first(db.q.selectFrom("events").selectAll().where("id", "=", id));
}

/** The payloads of one account's events of one type, oldest first, with when each was written. */
export function listEventPayloadsOfType(
  db: Db,
  accountId: string,
  type: string,
): { payload: string; created_at: number }[] {
  return db.all(
    db.q
      .selectFrom("events")
      .select(["payload", "created_at"])
      .where("account_id", "=", accountId)
      .where("type", "=", type)
      .orderBy("seq"),
  );
}
