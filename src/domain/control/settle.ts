import { AppError, invalidRequest } from "../../lib/app-error.js";
import { formatDuration } from "../../lib/duration.js";
import type { DomainContext, SettleOutcome, UnfinishedJob } from "../core/index.js";
import { attemptTargetOf } from "../webhooks/index.js";

/** A settle waits 10 s (real time) unless told otherwise. */
export const DEFAULT_SETTLE_TIMEOUT_MS = 10_000;

/**
 * The longest a settle may wait: 5 minutes, under the 300 s an HTTP client such as undici (Node's
 * fetch) waits for an answer's headers by default.
 */
const MAX_SETTLE_TIMEOUT_MS = 300_000;

/** How many deliveries a settle_timeout names before "and N more". */
const NAMED = 10;

/** What a settle answers: the clock's time, and how much it waited for (docs/control-api.md, "Settle"). */
export interface Settled {
  now: number;
  /** The jobs it waited for, first attempts included. */
  jobsRun: number;
  /** The first delivery attempts it waited for. */
  attempts: number;
}

/** Checks a settle's timeout (real milliseconds). */
export function checkSettleTimeout(ms: number): number {
  if (!(ms >= 0) || ms > MAX_SETTLE_TIMEOUT_MS) {
    throw invalidRequest(`timeout: must be between 0s and ${formatDuration(MAX_SETTLE_TIMEOUT_MS)}`);
  }
  return ms;
}

/** What a settle came to, as an answer or an error. */
export function settleAnswer(ctx: DomainContext, outcome: SettleOutcome, timeoutMs: number): Settled {
  if (outcome.stopped) throw new AppError("unavailable", 503, "The sandbox stopped before everything due had run");
  if (!outcome.settled) throw settleTimeout(ctx, outcome.unfinished, timeoutMs);
  return { now: outcome.now, jobsRun: outcome.jobsRun, attempts: outcome.firstAttempts };
}

/**
 * 408 settle_timeout: names each delivery still in flight by its id and endpoint URL (the first
 * ten, then "and N more"), an attempt on the wire first, then those waiting for their turn.
 */
function settleTimeout(ctx: DomainContext, unfinished: UnfinishedJob[], timeoutMs: number): AppError {
  const deliveries: string[] = [];
  let otherJobs = 0;
  for (const { job, inFlight } of unfinished) {
    const target = attemptTargetOf(ctx, job);
    if (!target) {
      otherJobs++;
      continue;
    }
    const state = inFlight ? "attempt in flight" : job.lane ? "first attempt waiting its turn" : "retry not started";
    deliveries.push(`delivery ${target.deliveryId} to ${target.url} (${state})`);
  }
  const named = deliveries.slice(0, NAMED).join(", ");
  const more = deliveries.length > NAMED ? `, and ${deliveries.length - NAMED} more` : "";
  const parts = [`Not settled within ${formatDuration(timeoutMs)}`];
  if (deliveries.length > 0) parts.push(`still in flight: ${named}${more}`);
  if (otherJobs > 0) parts.push(`${otherJobs} other job${otherJobs === 1 ? "" : "s"} due not finished`);
  return new AppError("settle_timeout", 408, parts.join("; "));
}
