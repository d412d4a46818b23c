import type { FaultSwitch, NumberFaults } from "../../contract/numbers.js";
import { invalidRequest, notFound } from "../../lib/app-error.js";
import { isoTimeOrNull } from "../../lib/clock.js";
import { findNumberFaults, saveNumberFaults, type NumberFaultsRow } from "../../store/world/index.js";
import type { DomainContext } from "../core/index.js";
import { noFaults, statusOfFaults } from "./number-faults.js";
import { findAccountNumber } from "./numbers.js";

function view(handle: string, row: NumberFaultsRow | undefined): NumberFaults {
  const faults = row ?? noFaults(handle, 0);
  return {
    handle,
    status: statusOfFaults(row),
    offline: faults.offline === 1,
    transient_remaining: faults.transient_remaining,
    rate_limited: faults.rate_limited === 1,
    rate_limit_level: faults.rate_limit_level,
    rate_limited_until: isoTimeOrNull(faults.rate_limited_until),
    relink_required: faults.relink_required === 1,
  };
}

/** The faults of one of the account's numbers (404 for a number it does not own). */
export function getNumberFaults(ctx: DomainContext, accountId: string, handle: string): NumberFaults {
  const number = findAccountNumber(ctx, accountId, handle);
  if (!number) throw notFound(`Number ${handle}`);
  return view(number.handle, findNumberFaults(ctx.db, number.handle));
}

/** Switches a fault on or off for one of the account's numbers. */
export function setNumberFault(
  ctx: DomainContext,
  accountId: string,
  handle: string,
  change: FaultSwitch,
): NumberFaults {
  const number = findAccountNumber(ctx, accountId, handle);
  if (!number) throw notFound(`Number ${handle}`);
  const { fault, count, off = false } = change;
  if (count !== undefined && fault !== "transient")
    throw invalidRequest("count: only the transient fault takes a count");
  if (off && (fault === "offline" || fault === "online"))
    throw invalidRequest(`off: use the "online" fault to bring a number back`);
  const servesWhatsApp = number.channels.includes("whatsapp");
  if ((fault === "rate-limited" || fault === "relink-required") && !servesWhatsApp) {
    throw invalidRequest(`fault: ${fault} is a WhatsApp fault and ${number.handle} does not serve WhatsApp`);
  }
  if (fault === "relink-required" && number.whatsappApi === "cloud" && !off) {
    throw invalidRequest(
      `fault: ${number.handle} is on the WhatsApp Cloud API, which has no linked session to re-link`,
    );
  }
  return ctx.db.transaction(() => {
    const at = ctx.clock.now();
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
