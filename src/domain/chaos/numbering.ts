import { endpointNumber, findMessageNumber, nextNumber, saveMessageNumber } from "../../store/chaos/index.js";
import { cacheOf, type DomainContext } from "../core/index.js";

/**
 * The identities chaos decides by (docs/chaos.md, "Determinism"): numbers that the same calls
 * give again in another run, where ids, URLs and times differ. Events and messages are numbered
 * per account from the moment chaos is switched on, so suites that run side by side, each in
 * its own account, do not shift each other's numbers.
 */

/** The next number of the account's events (call once per event, in its transaction). */
export function numberEvent(ctx: DomainContext, accountId: string): number {
  return nextNumber(ctx.db, accountId, "event");
}

/** A message's number in its account: given at the first decision about it, kept after. */
export function messageNumber(ctx: DomainContext, accountId: string, messageId: string): number {
  const known = findMessageNumber(ctx.db, messageId);
  if (known !== undefined) return known;
  const number = nextNumber(ctx.db, accountId, "message");
  saveMessageNumber(ctx.db, { message_id: messageId, account_id: accountId, number });
  return number;
}

/** An endpoint's number among its account's endpoints (creation order, deleted ones counted), remembered. */
export function endpointNumberOf(ctx: DomainContext, webhookId: string): number {
  const known = cacheOf<string, number>(ctx, "chaos-endpoint-numbers");
  let number = known.get(webhookId);
  if (number === undefined) {
    number = endpointNumber(ctx.db, webhookId);
    known.set(webhookId, number);
  }
  return number;
}
