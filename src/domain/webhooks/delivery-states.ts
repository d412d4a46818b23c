import type { DeliveryStatus } from "../../contract/statuses.js";
import { saveDeliveryState, savePendingDeliveryState, type DeliveryRow } from "../../store/webhooks/index.js";
import type { DomainContext } from "../core/index.js";

/** One row of the delivery status table: allowed from-states → to-state, and whether an attempt follows. */
interface DeliveryTransition {
  from: readonly DeliveryStatus[];
  to: DeliveryStatus;
  /** A next attempt is scheduled (its job id and due time are recorded with the transition). */
  nextAttempt: boolean;
}

/**
 * Spec section 6 (delivery rules 1 and 2) and the sandbox's own statuses as data: what moves a
 * webhook delivery between its statuses. Waits come from retry-ladder.ts.
 */
export const DELIVERY_TRANSITIONS = Object.freeze({
  /** Fan-out: one delivery per enabled endpoint subscribed to the event; the first attempt at once. */
  created: { from: [], to: "pending", nextAttempt: true },
  /** A 2xx within the 10 s acknowledgement window. */
  acknowledged: { from: ["pending"], to: "succeeded", nextAttempt: false },
  /** Another status, a timeout or a connection failure, with a rung of the ladder left. */
  attempt_failed: { from: ["pending"], to: "pending", nextAttempt: true },
  /** The 8th attempt failed: the delivery is marked failed. */
  ladder_exhausted: { from: ["pending"], to: "failed", nextAttempt: false },
  /** The host is, or resolves to, a forbidden address (spec 4.4): dropped, never retried. */
  dropped: { from: ["pending"], to: "dropped", nextAttempt: false },
  /** The endpoint was deleted or paused: deliveries stop at once. */
  abandoned: { from: ["pending"], to: "abandoned", nextAttempt: false },
  /** A resend made by hand was acknowledged: the event reached the endpoint after all. */
  resend_acknowledged: { from: ["pending", "failed", "dropped", "abandoned"], to: "succeeded", nextAttempt: false },
} satisfies Record<string, DeliveryTransition>);

/** A trigger of the delivery status table. */
export type DeliveryTrigger = keyof typeof DELIVERY_TRANSITIONS;

/** What a transition records besides the status. */
export interface DeliveryChange {
  /** Attempts made so far, when an attempt was just recorded. */
  attemptCount?: number;
  /** The next attempt, when the transition schedules one. */
  next?: { at: number; jobId: number };
  at: number;
}

/**
 * Moves a delivery by the table, inside the caller's transaction. A delivery no longer in a
 * from-state (abandoned while its attempt was in flight) keeps its status; only the attempt
 * count is recorded. Returns whether the transition applied.
 */
export function applyDeliveryTransition(
  ctx: DomainContext,
  row: DeliveryRow,
  trigger: DeliveryTrigger,
  change: DeliveryChange,
): boolean {
  const transition: DeliveryTransition = DELIVERY_TRANSITIONS[trigger];
  const attempt_count = change.attemptCount ?? row.attempt_count;
  if (!transition.from.includes(row.status)) {
    saveDeliveryState(ctx.db, { ...row, attempt_count, updated_at: change.at });
    return false;
  }
  const next = transition.nextAttempt ? change.next : undefined;
  saveDeliveryState(ctx.db, {
    id: row.id,
    attempt_count,
    status: transition.to,
    next_attempt_at: next?.at ?? null,
    job_id: next?.jobId ?? null,
    updated_at: change.at,
  });
  return true;
}

/** A row of the table whose only from-state is pending: what an attempt's outcome leads to. */
export type AttemptTrigger = "acknowledged" | "attempt_failed" | "ladder_exhausted" | "dropped";

/**
 * Moves a delivery by a row of the table that leaves only `pending`, in one statement whose WHERE
 * checks that it is still pending (no read first). False, with nothing written, when the delivery
 * is gone or no longer pending (a resend, reset or restore came between): the caller then reads
 * it and goes through `applyDeliveryTransition`.
 */
export function applyToPendingDelivery(
  ctx: DomainContext,
  id: string,
  trigger: AttemptTrigger,
  change: DeliveryChange & { attemptCount: number },
): boolean {
  const transition: DeliveryTransition = DELIVERY_TRANSITIONS[trigger];
  const next = transition.nextAttempt ? change.next : undefined;
  return savePendingDeliveryState(ctx.db, {
    id,
    attempt_count: change.attemptCount,
    status: transition.to,
    next_attempt_at: next?.at ?? null,
    job_id: next?.jobId ?? null,
    updated_at: change.at,
  });
}
