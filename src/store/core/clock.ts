import type { Db } from "../engine/db.js";
import type { ClockStateTable } from "./tables.js";

/** The persisted clock row, if any. */
export function readClockState(db: Db): ClockStateTable | undefined {
  return db.first(db.q.selectFrom("clock_state").selectAll().where("id", "=", 1));
}

/** Creates or replaces the clock row. */
export function writeClockState(db: Db, state: Omit<ClockStateTable, "id">): void {
  db.run(
    db.q
      .insertInto("clock_state")
      .values({ id: 1, ...state })
      .onConflict((oc) => oc.column("id").doUpdateSet(state)),
  );
}

/** Saves the manual clock's now. */
export function saveClockNow(db: Db, nowMs: number): void {
  db.run(db.q.updateTable("clock_state").set({ now_ms: nowMs }).where("id", "=", 1));
}
