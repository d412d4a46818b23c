import type { Delivery } from "../contract/index.js";

/**
 * True once a delivery's first attempt has finished (acknowledged, failed, timed out or dropped)
 * and is recorded, or once no attempt will ever be made (abandoned with its endpoint). What
 * `wait event --delivered` and `waitForEvent(type, { delivered: true })` wait for, for every
 * delivery of the event.
 */
export function firstAttemptFinished(delivery: Pick<Delivery, "status" | "attempts">): boolean {
  return delivery.status !== "pending" || delivery.attempts.some((attempt) => !attempt.resend);
}
