import type { Selectable } from "kysely";
import type { Db } from "../engine/db.js";
import type { ChaosStateTable } from "./tables.js";

/** Chaos in force as read back. */
export type ChaosStateRow = Selectable<ChaosStateTable>;

/** The chaos in force, or undefined while it is off. */
export function readChaosState(db: Db): ChaosStateRow | undefined {
  return db.first(db.q.selectFrom("chaos_state").selectAll().where("id", "=", 1));
}

/** Switches chaos on with this seed and profile, or off (undefined); the numbering starts again either way. */
export function writeChaosState(db: Db, state: Omit<ChaosStateRow, "id"> | undefined): void {
  db.run(db.q.deleteFrom("chaos_state"));
  db.run(db.q.deleteFrom("chaos_counters"));
  if (state) db.run(db.q.insertInto("chaos_state").values({ id: 1, ...state }));
}
