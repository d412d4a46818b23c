import type { Delivery } from "../contract/types.js";

/**
 * True once a delivery's first attempt has finished (acknowledged, failed, timed out or dropped)
 * and is recorded, or once no attempt will ever be made (abandoned with its endpoint). What
 * `wait event --delivered` and `waitForEvent(type, { delivered: true })` wait for, for every
 * delivery of the event. A copy sent by seeded chaos (`chaos: "duplicate"`) is not the event's
 * delivery but a second one, 1-60 s later: it never holds a wait back.
 */
export function firstAttemptFinished(delivery: Pick<Delivery, "status" | "attempts" | "chaos">): boolean {
  return (
    delivery.chaos === "duplicate" ||
    delivery.status !== "pending" ||
    delivery.attempts.some((attempt) => !attempt.resend)
  );
}
