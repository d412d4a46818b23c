import type { DomainContext } from "../core/index.js";
import { contactProfile, numberByHandle } from "../world/index.js";

/** What decides a recipient device's steps: it acknowledges delivery, and it sends read receipts. */
export interface RecipientTraits {
  reachable: boolean;
  read_receipts: boolean;
}

/**
 * A group member's device. One of the account's own numbers acknowledges (its copy arrives, as
 * inbound messages do whatever the number's faults) and never reads: no person reads for it. A
 * contact follows its profile.
 */
export function memberTraits(ctx: DomainContext, accountId: string, handle: string): RecipientTraits {
  const number = numberByHandle(ctx, handle);
  if (number && number.accountId === accountId) return { reachable: true, read_receipts: false };
  return contactProfile(ctx, handle);
}
