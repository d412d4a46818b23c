import { invalidState } from "../../lib/app-error.js";
import {
  findGroupMessage,
  insertGroupMessage,
  insertMessage,
  moveConversationMessages,
  saveLifecycle,
  type LifecycleColumn,
  type MessageRow,
  type MessagesTable,
} from "../../store/messages/index.js";
import { emitEvent, type DomainContext } from "../core/index.js";
import { followUpAt, scheduleNext, type FollowUpOptions, type Next } from "./follow-ups.js";
import { freshRetryColumns } from "./retry-policy.js";
import { lifecycleFields, receivedFields, type LifecycleEvent, type MessageStatus } from "./views.js";

/** A timestamp column a transition sets to its instant. */
type Stamp = "sent_at" | "delivered_at" | "read_at";

/**
 * One row of the message status table: allowed from-states → to-state, its event, stamps and
 * follow-up. A row from no state (`from: []`) creates the message, in the direction it names.
 */
export interface Transition {
  from: readonly MessageStatus[];
  to: MessageStatus;
  creates?: "outbound" | "inbound";
  event: LifecycleEvent | "message.received" | null;
  stamps: readonly Stamp[];
  next: Next | null;
}

const sendAgain: Next = { job: "send", after: "retry_policy" };

/**
 * Spec section 3, the message status table, as data, with the sandbox's own rows
 * (inbound messages, `simulate fail`). Every status a message is written with comes from a row of
 * this table, through the functions below. Retry timing comes from retry-policy.ts; latencies
 * from the settings.
 */
export const MESSAGE_TRANSITIONS = Object.freeze({
  /** POST /v1/messages accepted: 202, channel null. */
  accepted: {
    from: [],
    to: "queued",
    creates: "outbound",
    event: null,
    stamps: [],
    next: { job: "send", after: "send_latency" },
  },
  /** The message left the queue: channel resolved. */
  send_succeeded: {
    from: ["queued"],
    to: "sent",
    event: "message.sent",
    stamps: ["sent_at"],
    next: { job: "acknowledge", after: "deliver_latency", when: "reachable" },
  },
  /** The recipient's device acknowledged (never for an unreachable contact). */
  acknowledged: {
    from: ["sent"],
    to: "delivered",
    event: "message.delivered",
    stamps: ["delivered_at"],
    next: { job: "read", after: "read_delay", when: "read_receipts" },
  },
  /** The recipient read it (read receipts on). */
  read: { from: ["delivered"], to: "read", event: "message.read", stamps: ["read_at"], next: null },
  /** Transient error, sender online: retried about every 30 s. */
  transient_error: { from: ["queued"], to: "queued", event: null, stamps: [], next: sendAgain },
  /** Sending number offline: backoff, not counted as an attempt. */
  number_offline: { from: ["queued"], to: "queued", event: null, stamps: [], next: sendAgain },
  /** WhatsApp rate limit: retry after the number's cool-down, not counted. */
  rate_limited: { from: ["queued"], to: "queued", event: null, stamps: [], next: sendAgain },
  /** Media over the cap, session needs re-linking, Android outbound-first: immediate. */
  permanent_error: { from: ["queued"], to: "failed", event: "message.failed", stamps: [], next: null },
  /** 5 transient failures, or still offline/limited 24 h after the first attempt. */
  retries_exhausted: { from: ["queued"], to: "failed", event: "message.failed", stamps: [], next: null },
  /** POST /v1/messages/:id/retry. */
  retried: { from: ["failed"], to: "queued", event: null, stamps: [], next: { job: "send", after: "send_latency" } },
  /** A successful unsend (iMessage only); `read` counts as delivered. */
  unsent: { from: ["sent", "delivered", "read"], to: "unsent", event: null, stamps: [], next: null },
  /** `simulate fail`: the network refuses a message that has not been delivered. */
  simulated_failure: { from: ["queued", "sent"], to: "failed", event: "message.failed", stamps: [], next: null },
  /**
   * A message arrives at one of the account's numbers: it counts as delivered (reactions need
   * that), sent and delivered at its created_at (spec-decisions, Messages).
   */
  received: {
    from: [],
    to: "delivered",
    creates: "inbound",
    event: "message.received",
    stamps: ["sent_at", "delivered_at"],
    next: null,
  },
  /** POST /v1/chats/:id/read: the account read the thread; its inbound messages become read (no event). */
  thread_read: { from: ["delivered"], to: "read", event: null, stamps: ["read_at"], next: null },
} satisfies Record<string, Transition>);

/** A row of the table that creates a message. */
export type Creation = "accepted" | "received";

/** A trigger of the message status table that moves an existing message. */
export type Trigger = Exclude<keyof typeof MESSAGE_TRANSITIONS, Creation>;

/** What a transition carries besides its status. */
export interface TransitionOptions extends FollowUpOptions {
  /** Other lifecycle columns to set with it (channel, error, retry bookkeeping, generation). */
  changes?: Partial<Pick<MessageRow, LifecycleColumn>>;
  /** False moves without scheduling the follow-up (the in-between steps of `simulate`). */
  schedule?: boolean;
  /** Whether the message is a group message, when the caller read its group link already (spares a lookup). */
  isGroup?: boolean;
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
  // through a slow path (a few µs per transition, bench/HISTORY.md fifth pass), and every column
  // set here is one the row has.
  const next: MessageRow = { ...row, ...options.changes };
  next.status = transition.to;
  next.updated_at = now;
  for (const stamp of transition.stamps) next[stamp] = now;
  next.next_attempt_at =
    transition.next?.job === "send" && willSchedule
      ? (followUpAt(ctx, row, transition.next, now, options) ?? null)
      : null;
  saveLifecycle(ctx.db, next);
  if (transition.event) emitStatusEvent(ctx, next, transition.event, isGroupMessage(ctx, row, options.isGroup));
  if (willSchedule && transition.next) scheduleNext(ctx, next, transition.next, now, options);
  return next;
}

/** A new message's own columns: the rest (status, stamps, retry bookkeeping) come from its creating row. */
export type NewMessage = Omit<
  MessagesTable,
  | "direction"
  | "status"
  | Stamp
  | "error"
  | "attempts"
  | "first_attempt_at"
  | "backoff_ms"
  | "next_attempt_at"
  | "generation"
  | "edited_at"
  | "updated_at"
>;

/**
 * Creates a message by a row of the table inside the caller's transaction: the row with its first
 * status and stamps (at its created_at), a group message's link to its group (before the event,
 * whose payload says `is_group`), the event, and the first follow-up job. Returns the row.
 */
export function createMessage(
  ctx: DomainContext,
  creation: Creation,
  message: NewMessage,
  group?: { id: string; originId?: string },
): MessageRow {
  const transition: Transition = MESSAGE_TRANSITIONS[creation];
  const now = ctx.clock.now();
  const at = message.created_at;
  const stamped = (column: Stamp) => (transition.stamps.includes(column) ? at : null);
  const retry = freshRetryColumns();
  // Every column written out, in the order the insert reads them: one shape for every new row.
  const row: MessageRow = {
    id: message.id,
    account_id: message.account_id,
    conversation_id: message.conversation_id,
    direction: MESSAGE_TRANSITIONS[creation].creates,
    status: transition.to,
    channel: message.channel,
    number_handle: message.number_handle,
    remote_handle: message.remote_handle,
    requested_channel: message.requested_channel,
    text: message.text,
    effect: message.effect,
    reply_to: message.reply_to,
    error: null,
    metadata: message.metadata,
    has_attachments: message.has_attachments,
    voice_memo: message.voice_memo,
    media_quality: message.media_quality,
    attempts: retry.attempts,
    first_attempt_at: retry.first_attempt_at,
    backoff_ms: retry.backoff_ms,
    next_attempt_at:
      transition.next?.job === "send" ? (followUpAt(ctx, message, transition.next, now, {}) ?? null) : null,
    generation: 0,
    sent_at: stamped("sent_at"),
    delivered_at: stamped("delivered_at"),
    read_at: stamped("read_at"),
    edited_at: null,
    created_at: at,
    updated_at: at,
  };
  insertMessage(ctx.db, row);
  if (group)
    insertGroupMessage(ctx.db, {
      message_id: row.id,
      group_id: group.id,
      origin_id: group.originId ?? row.id,
      created_at: message.created_at,
    });
  if (transition.event) emitStatusEvent(ctx, row, transition.event, group !== undefined);
  if (transition.next) scheduleNext(ctx, row, transition.next, now, {});
  return row;
}

/**
 * Applies a row of the table to every message of a conversation in the row's from-states and
 * `direction`, in one statement inside the caller's transaction: for rows without an event or
 * follow-up (the account reading a thread). Returns how many messages moved.
 */
export function applyToConversation(
  ctx: DomainContext,
  conversationId: string,
  direction: "outbound" | "inbound",
  trigger: "thread_read",
): number {
  const transition: Transition = MESSAGE_TRANSITIONS[trigger];
  return moveConversationMessages(ctx.db, conversationId, {
    direction,
    from: transition.from,
    to: transition.to,
    stamps: transition.stamps,
    at: ctx.clock.now(),
  });
}

/** A transition's event: message.received's payload for an arrival, the lifecycle's for the rest. */
function emitStatusEvent(
  ctx: DomainContext,
  row: MessageRow,
  event: NonNullable<Transition["event"]>,
  isGroup: boolean,
): void {
  if (event === "message.received") emitEvent(ctx, row.account_id, event, receivedFields(row, isGroup));
  else emitEvent(ctx, row.account_id, event, lifecycleFields(row, isGroup));
}

/** True for an outbound group message (its lifecycle events say `is_group`, and name no single recipient). */
const isGroupMessage = (ctx: DomainContext, row: MessageRow, known: boolean | undefined) =>
  row.direction === "outbound" && (known ?? findGroupMessage(ctx.db, row.id) !== undefined);

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
