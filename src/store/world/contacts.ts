import { compileOnce } from "../engine/compiled-query.js";
import type { Db } from "../engine/db.js";
import type { ContactsTable } from "./tables.js";

/** Inserts or replaces a contact's profile. */
export function upsertContact(db: Db, row: ContactsTable): void {
  db.run(
    db.q
      .insertInto("contacts")
      .values(row)
      .onConflict((oc) =>
        oc.column("handle").doUpdateSet({
          imessage: row.imessage,
          platform: row.platform,
          whatsapp: row.whatsapp,
          reachable: row.reachable,
          read_receipts: row.read_receipts,
          updated_at: row.updated_at,
        }),
      ),
  );
}

// Routing looks a contact up on every send and lifecycle job.
const findContactQuery = compileOnce<[string], ContactsTable>((q, arg) =>
  q.selectFrom("contacts").selectAll().where("handle", "=", arg(0)),
);

/** A contact by handle. */
export function findContact(db: Db, handle: string): ContactsTable | undefined {
  return db.first(findContactQuery(handle));
}

/** Every contact on record, by handle. */
export function listContacts(db: Db): ContactsTable[] {
  return db.all(db.q.selectFrom("contacts").selectAll().orderBy("handle"));
}
