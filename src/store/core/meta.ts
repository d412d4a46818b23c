import type { Db } from "../engine/db.js";

/** A value of the meta table. */
export function readMeta(db: Db, key: string): string | undefined {
  return db.first(db.q.selectFrom("meta").select("value").where("key", "=", key))?.value;
}

/** Sets a value of the meta table. */
export function writeMeta(db: Db, key: string, value: string): void {
  db.run(
    db.q
      .insertInto("meta")
      .values({ key, value })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value })),
  );
}
