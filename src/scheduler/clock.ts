import type { Clock, ClockMode } from "../lib/clock.js";
import { readClockState, saveClockNow, writeClockState } from "../store/core/index.js";
import type { Db } from "../store/engine/index.js";

/** A clock the scheduler can move: the manual clock moves on `set`; the real one ignores it. */
export interface SchedulerClock extends Clock {
  /** Moves virtual time forward to `ms` (manual mode; never backwards). */
  set(ms: number): void;
  /** Persists the current time, so a restart resumes from it. */
  save(): void;
  /** A restore: the manual clock goes to `ms`, backwards too; the real one keeps the wall's time. */
  restore(ms: number): void;
}

/**
 * The wall clock, `offsetMs` ahead of it when the database's time stood ahead of the wall (a
 * manual clock advanced past it): time never moves backwards within a database.
 */
export function realClock(db: Db, offsetMs = 0): SchedulerClock {
  const now = offsetMs === 0 ? () => Date.now() : () => Date.now() + offsetMs;
  return { mode: "real", now, set() {}, save: () => saveClockNow(db, now()), restore() {} };
}

/** Time that stands still until advanced, persisted in the database. */
export function manualClock(db: Db, startMs: number): SchedulerClock {
  let now = startMs;
  return {
    mode: "manual",
    now: () => now,
    set(ms) {
      if (ms > now) now = ms;
    },
    save: () => saveClockNow(db, now),
    restore(ms) {
      now = ms;
    },
  };
}

/**
 * Opens the clock of a database in the given mode; time never moves backwards within it. A
 * manual clock resumes exactly where a manual clock of this database stood; after a real-clock
 * run (or on a fresh database) it starts at `wallNow`, or where the real clock stood when that
 * was later. A real clock follows the wall, shifted ahead by as much as the database's time
 * stood ahead of it (advanced past it in manual mode): its jobs keep their distances in time.
 */
export function openClock(db: Db, mode: ClockMode, wallNow: number): SchedulerClock {
  const state = readClockState(db);
  const stood = state?.now_ms ?? 0;
  const start = state?.mode === "manual" && mode === "manual" ? stood : Math.max(wallNow, stood);
  writeClockState(db, { mode, now_ms: start, last_record_ms: state?.last_record_ms ?? 0 });
  return mode === "manual" ? manualClock(db, start) : realClock(db, start - wallNow);
}
