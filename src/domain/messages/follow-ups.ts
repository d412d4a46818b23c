import type { MessageRow } from "../../store/messages/index.js";
import { scheduleJob, type DomainContext } from "../core/index.js";
import { contactProfile, type ContactProfile } from "../world/index.js";
import { memberTraits } from "./recipients.js";

/*
 * What a row of the message status table schedules next: the lifecycle's jobs, when each is due
 * and on which condition of the contact (or of each group member).
 */

/** The scheduler job kinds of the outbound lifecycle. */
export const MESSAGE_JOBS = Object.freeze({
  send: "message.send",
  acknowledge: "message.acknowledge",
  read: "message.read",
});

/** The payload of every lifecycle job: a stale generation means the message moved on without it. */
export interface LifecycleJob {
  message_id: string;
  generation: number;
  /** Group messages: the member whose device this step is about (each acknowledges and reads on its own). */
  member?: string;
}

/** What a transition schedules next, after which wait, and on which condition of the contact. */
export type Next =
  | { job: "send"; after: "send_latency" | "retry_policy" }
  | { job: "acknowledge"; after: "deliver_latency"; when: "reachable" }
  | { job: "read"; after: "read_delay"; when: "read_receipts" };

/** What decides a follow-up's time and its jobs besides the row. */
export interface FollowUpOptions {
  /** When the follow-up job is due, for `retry_policy` waits. */
  nextAt?: number;
  /** The recipient's profile when the caller already has it (spares a lookup). */
  profile?: ContactProfile;
  /**
   * Group messages: the members the follow-up is for, one job each, on each member's condition
   * (all members when the message leaves; the one member who acknowledged, for its read).
   */
  members?: readonly string[];
}

/** The follow-up jobs of a transition: one, or one per group member whose condition holds. */
export function scheduleNext(
  ctx: DomainContext,
  row: MessageRow,
  next: Next,
  now: number,
  options: FollowUpOptions,
): void {
  const members = next.job === "send" || options.members === undefined ? [undefined] : options.members;
  for (const member of members) {
    const dueAt = followUpAt(ctx, row, next, now, options, member);
    if (dueAt === undefined) continue;
    const payload: LifecycleJob =
      member === undefined
        ? { message_id: row.id, generation: row.generation }
        : { message_id: row.id, generation: row.generation, member };
    scheduleJob(ctx, MESSAGE_JOBS[next.job], payload, dueAt);
  }
}

/** When the follow-up is due, or undefined when its condition (reachable, read receipts) does not hold. */
export function followUpAt(
  ctx: DomainContext,
  row: Pick<MessageRow, "account_id" | "remote_handle">,
  next: Next,
  now: number,
  options: FollowUpOptions,
  member?: string,
): number | undefined {
  const { settings } = ctx;
  const profile = () =>
    member === undefined
      ? (options.profile ?? contactProfile(ctx, row.remote_handle))
      : memberTraits(ctx, row.account_id, member);
  switch (next.after) {
    case "send_latency":
      return now + settings.sendLatencyMs;
    case "retry_policy":
      return options.nextAt ?? now;
    case "deliver_latency":
      return profile().reachable ? now + settings.deliverLatencyMs : undefined;
    case "read_delay":
      return profile().read_receipts ? now + settings.readDelayMs : undefined;
  }
}
