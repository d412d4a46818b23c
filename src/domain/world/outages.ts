import { findNumberFaults, saveNumberFaults } from "../../store/world/index.js";
import type { DomainContext } from "../core/index.js";
import { noFaults } from "./number-faults.js";

/**
 * A number goes offline by itself for a while (seeded chaos): the same `offline` fault as
 * `simulate fault N offline`, so sends meet it as the retry policy says and GET /v1/numbers
 * shows it. Returns false, and changes nothing, when the number is offline already.
 */
export function startOutage(ctx: DomainContext, handle: string, at: number): boolean {
  const row = findNumberFaults(ctx.db, handle) ?? noFaults(handle, at);
  if (row.offline) return false;
  saveNumberFaults(ctx.db, { ...row, offline: 1, updated_at: at });
  return true;
}

/**
 * The end of an outage that began at `since`: the number comes back online, unless its faults
 * were switched by hand meanwhile (then they stay as set). While a number is offline no send
 * writes its faults, so an unchanged `updated_at` means nobody touched them.
 */
export function endOutage(ctx: DomainContext, handle: string, since: number): void {
  const row = findNumberFaults(ctx.db, handle);
  if (!row?.offline || row.updated_at !== since) return;
  saveNumberFaults(ctx.db, { ...row, offline: 0, updated_at: ctx.clock.now() });
}
