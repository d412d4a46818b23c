import type { DomainContext, JobHandler } from "../core/index.js";
import { scheduleJob } from "../core/index.js";
import { endOutage, startOutage, type FaultOutcome } from "../world/index.js";
import { decideReceipt, decideSend } from "./decisions.js";
import { recordChaos } from "./log.js";
import { messageNumber } from "./numbering.js";
import { activeChaos } from "./state.js";

/** The scheduler job that ends an outage chaos started. */
export const OUTAGE_END_JOB = "chaos.outage_end";

/** What chaos reads of a message at its send attempt. */
export interface SendAttemptWork {
  id: string;
  account_id: string;
  number_handle: string;
  /** Bumped when the message is sent afresh (a retry after failing): each round is decided anew. */
  generation: number;
  /** Null until the first attempt of this round: only that attempt is decided on. */
  first_attempt_at: number | null;
}

/**
 * Chaos at a message's first send attempt (docs/chaos.md), after the number's own faults were
 * met (`outcome`): before the send its number goes offline for 1-10 min, or the send meets a
 * transient error; either is then retried as the retry policy says (spec section 3). The
 * number is given its identity here, so every message is numbered at its first attempt.
 */
export function chaosAtSend(
  ctx: DomainContext,
  message: SendAttemptWork,
  outcome: FaultOutcome,
  now: number,
): FaultOutcome {
  if (message.first_attempt_at !== null) return outcome;
  const chaos = activeChaos(ctx);
  if (!chaos) return outcome;
  const number = messageNumber(ctx, message.account_id, message.id);
  if (outcome.kind !== "ok") return outcome;
  const decision = decideSend(chaos, number, message.generation);
  const work = { messageId: message.id, messageNumber: number, handle: message.number_handle };
  if (decision.offlineForMs !== undefined && startOutage(ctx, message.number_handle, now)) {
    scheduleJob(ctx, OUTAGE_END_JOB, { handle: message.number_handle, since: now }, now + decision.offlineForMs);
    recordChaos(ctx, message.account_id, "number_offline", { ...work, delayMs: decision.offlineForMs });
    return { kind: "offline" };
  }
  if (decision.sendError) {
    recordChaos(ctx, message.account_id, "send_error", work);
    return { kind: "transient" };
  }
  return outcome;
}

/**
 * True when chaos loses this receipt (`delivered` or `read`, from one group member when given):
 * the message then stays where it is, as when a device never answers. Recorded when lost.
 */
export function receiptLost(
  ctx: DomainContext,
  message: { id: string; account_id: string },
  receipt: "delivered" | "read",
  member?: string,
): boolean {
  const chaos = activeChaos(ctx);
  if (!chaos) return false;
  const number = messageNumber(ctx, message.account_id, message.id);
  if (!decideReceipt(chaos, number, receipt, member)) return false;
  recordChaos(ctx, message.account_id, "receipt_lost", {
    messageId: message.id,
    messageNumber: number,
    receipt,
    member,
  });
  return true;
}

/** Job `chaos.outage_end`: the number comes back online, unless its faults were switched by hand meanwhile. */
export const runOutageEnd: JobHandler = (ctx, job: { handle: string; since: number }) =>
  endOutage(ctx, job.handle, job.since);
