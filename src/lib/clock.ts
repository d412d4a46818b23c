/** How the sandbox's time can move: with the wall clock, or only when advanced. */
export const CLOCK_MODES = ["real", "manual"] as const;
/** How the sandbox's time moves: with the wall clock, or only when advanced. */
export type ClockMode = (typeof CLOCK_MODES)[number];

/** The one source of time for everything the service produces or checks. */
export interface Clock {
  readonly mode: ClockMode;
  /** Current virtual time, milliseconds since the epoch. */
  now(): number;
}

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00.000Z: from there on toISOString writes a six-digit year. */
const YEAR_10000_MS = 253_402_300_800_000;

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

let lastMs = Number.NaN;
let lastIso = "";

/**
 * ISO 8601 with milliseconds in UTC, the spec's `<timestamp>` shape: what `toISOString` writes.
 * Written out here because `toISOString` cost 0.4-0.8 µs a call, three times per lifecycle event
 * and five per message of a page (bench/HISTORY.md, fourth pass); this takes a third of that, and
 * the timestamps of one instant (an advance's jobs) are converted once.
 */
export function isoTime(ms: number): string {
  if (ms === lastMs) return lastIso;
  if (!(ms >= 0 && ms < YEAR_10000_MS && Number.isInteger(ms))) return new Date(ms).toISOString();
  // Days since the epoch to a civil date (Howard Hinnant's days_from_civil, inverted).
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1_460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1_000);
  const iso = `${year}-${pad2(month)}-${pad2(day)}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${pad3(rest - seconds * 1_000)}Z`;
  lastMs = ms;
  lastIso = iso;
  return iso;
}

/** Like isoTime, for nullable columns. */
export function isoTimeOrNull(ms: number | null | undefined): string | null {
  return ms == null ? null : isoTime(ms);
}

/**
 * `ms` as an ISO time, but never before `floor` (null stays null). A record's later times (sent,
 * delivered, updated) are the clock's, while its `created_at` may be a few milliseconds ahead
 * of the clock when many records were made in one virtual millisecond (docs/spec-decisions.md,
 * "Timestamps and paging"): shown as they are, a message could read as sent before it was made.
 */
export function isoTimeFrom(ms: number | null | undefined, floor: number): string | null {
  return ms == null ? null : isoTime(Math.max(ms, floor));
}

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/;

/**
 * Parses an ISO timestamp into milliseconds, or undefined when it is not one. Every field must be
 * in its range: Date.parse would roll `2026-02-30` over to March 2nd and read `24:00` as the next
 * day, so a typo would page from another moment than the one written.
 */
export function parseIsoTime(value: string): number | undefined {
  const match = ISO_TIME.exec(value);
  if (!match) return undefined;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0] = match
    .slice(1)
    .map((field) => Number(field ?? 0));
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const inRange =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 23 &&
    offsetMinutes <= 59;
  const ms = inRange ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
}
