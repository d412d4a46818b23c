import { invalidState } from "../../lib/app-error.js";
import { findGroupMessage, saveLifecycle, type LifecycleColumn, type MessageRow } from "../../store/messages/index.js";
import { emitEvent, scheduleJob, type DomainContext } from "../core/index.js";
import { contactProfile, type ContactProfile } from "../world/index.js";
import { memberTraits } from "./recipients.js";
import { lifecycleFields, type LifecycleEvent, type MessageStatus } from "./views.js";

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
type Next =
  | { job: "send"; after: "send_latency" | "retry_policy" }
  | { job: "acknowledge"; after: "deliver_latency"; when: "reachable" }
  | { job: "read"; after: "read_delay"; when: "read_receipts" };

/** One row of the message status table: allowed from-states → to-state, its event, stamp and follow-up. */
export interface Transition {
  from: readonly MessageStatus[];
  to: MessageStatus;
  event: LifecycleEvent | null;
  stamp: "sent_at" | "delivered_at" | "read_at" | null;
  next: Next | null;
}

const sendAgain: Next = { job: "send", after: "retry_policy" };

/**
 * Spec section 3, the message status table, as data (STYLE.md rule 5). Retry timing comes from
 * message-retry-policy.ts; latencies from the settings.
 */
export const MESSAGE_TRANSITIONS = Object.freeze({
  /** POST /v1/messages accepted: 202, channel null. */
  accepted: { from: [], to: "queued", event: null, stamp: null, next: { job: "send", after: "send_latency" } },
  /** The message left the queue: channel resolved. */
  send_succeeded: {
    from: ["queued"],
    to: "sent",
    event: "message.sent",
    stamp: "sent_at",
    next: { job: "acknowledge", after: "deliver_latency", when: "reachable" },
  },
  /** The recipient's device acknowledged (never for an unreachable contact). */
  acknowledged: {
    from: ["sent"],
    to: "delivered",
    event: "message.delivered",
    stamp: "delivered_at",
    next: { job: "read", after: "read_delay", when: "read_receipts" },
  },
  /** The recipient read it (read receipts on). */
  read: { from: ["delivered"], to: "read", event: "message.read", stamp: "read_at", next: null },
  /** Transient error, sender online: retried about every 30 s. */
  transient_error: { from: ["queued"], to: "queued", event: null, stamp: null, next: sendAgain },
  /** Sending number offline: backoff, not counted as an attempt. */
  number_offline: { from: ["queued"], to: "queued", event: null, stamp: null, next: sendAgain },
  /** WhatsApp rate limit: retry after the number's cool-down, not counted. */
  rate_limited: { from: ["queued"], to: "queued", event: null, stamp: null, next: sendAgain },
  /** Media over the cap, session needs re-linking, Android outbound-first: immediate. */
  permanent_error: { from: ["queued"], to: "failed", event: "message.failed", stamp: null, next: null },
  /** 5 transient failures, or still offline/limited 24 h after the first attempt. */
  retries_exhausted: { from: ["queued"], to: "failed", event: "message.failed", stamp: null, next: null },
  /** POST /v1/messages/:id/retry. */
  retried: { from: ["failed"], to: "queued", event: null, stamp: null, next: { job: "send", after: "send_latency" } },
  /** A successful unsend (iMessage only); `read` counts as delivered. */
  unsent: { from: ["sent", "delivered", "read"], to: "unsent", event: null, stamp: null, next: null },
  /** `simulate fail`: the network refuses a message that has not been delivered. */
  simulated_failure: { from: ["queued", "sent"], to: "failed", event: "message.failed", stamp: null, next: null },
} satisfies Record<string, Transition>);

/** A trigger of the message status table. */
export type Trigger = keyof typeof MESSAGE_TRANSITIONS;

/** What a transition carries besides its status. */
export interface TransitionOptions {
  /** Other lifecycle columns to set with it (channel, error, retry bookkeeping, generation). */
  changes?: Partial<Pick<MessageRow, LifecycleColumn>>;
  /** When the follow-up job is due, for `retry_policy` waits. */
  nextAt?: number;
  /** False moves without scheduling the follow-up (the in-between steps of `simulate`). */
  schedule?: boolean;
  /** The recipient's profile when the caller already has it (spares a lookup). */
  profile?: ContactProfile;
  /**
   * Group messages: the members the follow-up is for, one job each, on each member's condition
   * (all members when the message leaves; the one member who acknowledged, for its read).
   */
  members?: readonly string[];
}

/** True when the table allows `trigger` from the message's current status. */
export function canTransition(row: MessageRow, trigger: Trigger): boolean {
  return (MESSAGE_TRANSITIONS[trigger].from as readonly MessageStatus[]).includes(row.status);
}

/**
 * Applies one row of the table inside the caller's transaction: the status with its timestamp,
 * the event, and the follow-up job. Returns the updated row. 409 invalid_state when the table
 * does not allow the trigger from the current status.
 */
export function applyTransition(
  ctx: DomainContext,
  row: MessageRow,
  trigger: Trigger,
  options: TransitionOptions = {},
): MessageRow {
  const transition: Transition = MESSAGE_TRANSITIONS[trigger];
  if (!canTransition(row, trigger)) throw invalidState(`A ${row.status} message cannot move to ${transition.to}`);
  const now = ctx.clock.now();
  const willSchedule = transition.next !== null && options.schedule !== false;
  // A copy of the row whose columns are then set: V8 adds a property that a spread copy lacks
  // through a slow path (a few µs per transition, bench/README.md fifth pass), and every column
  // set here is one the row has.
  const next: MessageRow = { ...row, ...options.changes };
  next.status = transition.to;
  next.updated_at = now;
  if (transition.stamp) next[transition.stamp] = now;
  next.next_attempt_at =
    transition.next?.job === "send" && willSchedule
      ? (followUpAt(ctx, row, transition.next, now, options) ?? null)
      : null;
  saveLifecycle(ctx.db, next);
  if (transition.event)
    emitEvent(ctx, row.account_id, transition.event, lifecycleFields(next, isGroupMessage(ctx, row)));
  if (willSchedule && transition.next) scheduleNext(ctx, next, transition.next, now, options);
  return next;
}

/** True for an outbound group message (its lifecycle events say `is_group`, and name no single recipient). */
const isGroupMessage = (ctx: DomainContext, row: MessageRow) =>
  row.direction === "outbound" && findGroupMessage(ctx.db, row.id) !== undefined;

/**
 * Schedules what the row of `trigger` names next, without moving the status: for a group member
 * whose device acknowledged after the first one already moved the message to delivered.
 */
export function scheduleFollowUps(
  ctx: DomainContext,
  row: MessageRow,
  trigger: Trigger,
  options: TransitionOptions = {},
): void {
  const next: Transition["next"] = MESSAGE_TRANSITIONS[trigger].next;
  if (next) scheduleNext(ctx, row, next, ctx.clock.now(), options);
}

/** The follow-up jobs of a transition: one, or one per group member whose condition holds. */
function scheduleNext(ctx: DomainContext, row: MessageRow, next: Next, now: number, options: TransitionOptions): void {
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
function followUpAt(
  ctx: DomainContext,
  row: MessageRow,
  next: Next,
  now: number,
  options: TransitionOptions,
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
