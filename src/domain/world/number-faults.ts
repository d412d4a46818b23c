import type { Channel } from "../../contract/common.js";
import { findNumberFaults, saveNumberFaults, type NumberFaultsRow } from "../../store/world/index.js";
import type { DomainContext } from "../core/index.js";
import { meetRateLimit } from "./whatsapp-rate-limit.js";

/** Why an attempt did not go out, when it may still go out later (the retry policy decides when). */
export type RetryableFailure = { kind: "transient" } | { kind: "offline" } | { kind: "rate_limited"; until: number };

/** What one send attempt from a number meets: nothing, a retryable failure, or a permanent error. */
export type FaultOutcome = { kind: "ok" } | { kind: "permanent"; error: string } | RetryableFailure;

/** A number with no fault switched on. */
export const noFaults = (handle: string, at: number): NumberFaultsRow => ({
  handle,
  offline: 0,
  transient_remaining: 0,
  rate_limited: 0,
  rate_limit_level: 0,
  rate_limited_until: null,
  relink_required: 0,
  updated_at: at,
});

/** A number's status as GET /v1/numbers shows it (spec 2: `online` and other values). */
export function statusOfFaults(row: NumberFaultsRow | undefined): string {
  if (!row) return "online";
  if (row.offline) return "offline";
  if (row.relink_required) return "relink_required";
  if (row.rate_limited) return "rate_limited";
  return "online";
}

/** The status of the number with this handle. */
export function numberStatus(ctx: DomainContext, handle: string): string {
  return statusOfFaults(findNumberFaults(ctx.db, handle));
}

/**
 * What a send attempt at `now` from `handle` over `channel` meets, in this order: a WhatsApp session
 * that needs re-linking (permanent), the number offline, WhatsApp rate limiting, a transient error.
 * A transient error uses up one of the number's pending ones. Call inside the attempt's transaction;
 * `known` carries the number's fault row when the attempt read it already (in the same transaction).
 */
export function meetFaults(
  ctx: DomainContext,
  handle: string,
  channel: Channel,
  now: number,
  known?: { faults: NumberFaultsRow | undefined },
): FaultOutcome {
  const row = known ? known.faults : findNumberFaults(ctx.db, handle);
  if (!row) return { kind: "ok" };
  const whatsapp = channel === "whatsapp";
  if (whatsapp && row.relink_required) {
    return {
      kind: "permanent",
      error: `The WhatsApp session of ${handle} needs re-linking; link the device again, then retry`,
    };
  }
  if (row.offline) return { kind: "offline" };
  if (whatsapp && row.rate_limited) {
    const { state, repeated } = meetRateLimit({ level: row.rate_limit_level, until: row.rate_limited_until }, now);
    if (repeated)
      saveNumberFaults(ctx.db, {
        ...row,
        rate_limit_level: state.level,
        rate_limited_until: state.until,
        updated_at: now,
      });
    return { kind: "rate_limited", until: state.until as number };
  }
  if (row.transient_remaining > 0) {
    saveNumberFaults(ctx.db, { ...row, transient_remaining: row.transient_remaining - 1, updated_at: now });
    return { kind: "transient" };
  }
  return { kind: "ok" };
}
