import type { NumberFaults } from "../../lib/api-resources.js";
import { invalidRequest, notFound } from "../../lib/app-error.js";
import { isoTimeOrNull } from "../../lib/clock.js";
import { findNumberFaults, saveNumberFaults, type NumberFaultsRow } from "../../store/number-faults.js";
import type { DomainContext } from "../core/context.js";
import { rateLimitCooldownMs, type RetryableFailure } from "../messages/retry-policy.js";
import { findAccountNumber, numberStatus, type Channel } from "./numbers.js";

/** The faults `simulate fault` switches (SANDBOX.md sections 3 and 6). */
export const FAULT_NAMES = ["offline", "online", "transient", "rate-limited", "relink-required"] as const;

/** A fault name. */
export type FaultName = (typeof FAULT_NAMES)[number];

/** A number's faults as the control API shows them. */
export type NumberFaultsView = NumberFaults;

/** What one send attempt from a number meets: nothing, a retryable failure, or a permanent error. */
export type FaultOutcome = { kind: "ok" } | { kind: "permanent"; error: string } | RetryableFailure;

const noFaults = (handle: string, at: number): NumberFaultsRow => ({
  handle,
  offline: 0,
  transient_remaining: 0,
  rate_limited: 0,
  rate_limit_level: 0,
  rate_limited_until: null,
  relink_required: 0,
  updated_at: at,
});

function statusOf(row: NumberFaultsRow | undefined): string {
  if (!row) return "online";
  if (row.offline) return "offline";
  if (row.relink_required) return "relink_required";
  if (row.rate_limited) return "rate_limited";
  return "online";
}

// GET /v1/numbers shows a number's fault as its status (spec 2: `online` and other values).
numberStatus.of = (ctx, handle) => statusOf(findNumberFaults(ctx.db, handle));

function view(handle: string, row: NumberFaultsRow | undefined): NumberFaultsView {
  const faults = row ?? noFaults(handle, 0);
  return {
    handle,
    status: statusOf(row),
    offline: faults.offline === 1,
    transient_remaining: faults.transient_remaining,
    rate_limited: faults.rate_limited === 1,
    rate_limit_level: faults.rate_limit_level,
    rate_limited_until: isoTimeOrNull(faults.rate_limited_until),
    relink_required: faults.relink_required === 1,
  };
}

/** The faults of one of the account's numbers (404 for a number it does not own). */
export function getNumberFaults(ctx: DomainContext, accountId: string, handle: string): NumberFaultsView {
  const number = findAccountNumber(ctx, accountId, handle);
  if (!number) throw notFound(`Number ${handle}`);
  return view(number.handle, findNumberFaults(ctx.db, number.handle));
}

/** Options of a fault switch: `count` for transient, `off` to clear. */
export interface FaultSwitch {
  fault: FaultName;
  count?: number;
  off?: boolean;
}

/** Switches a fault on or off for one of the account's numbers (SANDBOX.md section 5, Faults). */
export function setNumberFault(ctx: DomainContext, accountId: string, handle: string, change: FaultSwitch): NumberFaultsView {
  const number = findAccountNumber(ctx, accountId, handle);
  if (!number) throw notFound(`Number ${handle}`);
  const { fault, count, off = false } = change;
  if (count !== undefined && fault !== "transient") throw invalidRequest("count: only the transient fault takes a count");
  if (off && (fault === "offline" || fault === "online")) throw invalidRequest(`off: use the "online" fault to bring a number back`);
  const servesWhatsApp = number.channels.includes("whatsapp");
  if ((fault === "rate-limited" || fault === "relink-required") && !servesWhatsApp) {
    throw invalidRequest(`fault: ${fault} is a WhatsApp fault and ${number.handle} does not serve WhatsApp`);
  }
  if (fault === "relink-required" && number.whatsappApi === "cloud" && !off) {
    throw invalidRequest(`fault: ${number.handle} is on the WhatsApp Cloud API, which has no linked session to re-link`);
  }
  return ctx.db.transaction(() => {
    const at = ctx.recordTime();
    const row = { ...(findNumberFaults(ctx.db, number.handle) ?? noFaults(number.handle, at)), updated_at: at };
    switch (fault) {
      case "offline":
      case "online":
        row.offline = fault === "offline" ? 1 : 0;
        break;
      case "transient":
        row.transient_remaining = off ? 0 : (count ?? 1);
        break;
      case "rate-limited":
        // --off clears the limit and its escalation; switching it on again keeps the escalation.
        row.rate_limited = off ? 0 : 1;
        if (off) Object.assign(row, { rate_limit_level: 0, rate_limited_until: null });
        break;
      case "relink-required":
        row.relink_required = off ? 0 : 1;
        break;
    }
    saveNumberFaults(ctx.db, row);
    return view(number.handle, row);
  });
}

/**
 * What a send attempt at `now` from `handle` over `channel` meets, in this order: a WhatsApp session
 * that needs re-linking (permanent), the number offline, WhatsApp rate limiting, a transient error.
 * A transient error uses up one of the number's pending ones; a rate limit hit after the cool-down
 * ended is a repeat and doubles it. Call inside the attempt's transaction.
 */
export function meetFaults(ctx: DomainContext, handle: string, channel: Channel, now: number): FaultOutcome {
  const row = findNumberFaults(ctx.db, handle);
  if (!row) return { kind: "ok" };
  const whatsapp = channel === "whatsapp";
  if (whatsapp && row.relink_required) {
    return { kind: "permanent", error: `The WhatsApp session of ${handle} needs re-linking; link the device again, then retry` };
  }
  if (row.offline) return { kind: "offline" };
  if (whatsapp && row.rate_limited) {
    if (row.rate_limited_until !== null && now < row.rate_limited_until) return { kind: "rate_limited", until: row.rate_limited_until };
    const level = row.rate_limited_until === null ? 0 : row.rate_limit_level + 1;
    const until = now + rateLimitCooldownMs(level);
    saveNumberFaults(ctx.db, { ...row, rate_limit_level: level, rate_limited_until: until, updated_at: now });
    return { kind: "rate_limited", until };
  }
  if (row.transient_remaining > 0) {
    saveNumberFaults(ctx.db, { ...row, transient_remaining: row.transient_remaining - 1, updated_at: now });
    return { kind: "transient" };
  }
  return { kind: "ok" };
}
