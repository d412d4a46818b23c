/** How the sandbox's time moves: with the wall clock, or only when advanced. */
export type ClockMode = "real" | "manual";

/** The one source of time for everything the service produces or checks (SANDBOX.md section 4). */
export interface Clock {
  readonly mode: ClockMode;
  /** Current virtual time, milliseconds since the epoch. */
  now(): number;
}

/** ISO 8601 with milliseconds in UTC, the spec's `<timestamp>` shape. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** Like isoTime, for nullable columns. */
export function isoTimeOrNull(ms: number | null | undefined): string | null {
  return ms == null ? null : isoTime(ms);
}

/** Parses an ISO timestamp into milliseconds, or undefined when it is not one. */
export function parseIsoTime(value: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
