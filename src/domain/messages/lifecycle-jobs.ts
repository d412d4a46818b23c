import { setConversationChannel } from "../../store/conversations/index.js";
import {
  findLifecycleMessage,
  findSendMessage,
  type LifecycleRead,
  type MessageRow,
} from "../../store/messages/index.js";
import { prepareMessageMedia } from "../attachments/index.js";
import { chaosAtSend, receiptLost } from "../chaos/index.js";
import { groupById } from "../conversations/index.js";
import type { DomainContext, JobHandler } from "../core/index.js";
import { meetFaults, numberByHandle, profileOf, type ContactProfile } from "../world/index.js";
import { openReceipts, routeGroup, runMemberAcknowledge, runMemberRead } from "./group-delivery.js";
import { decideRetry, retryColumnsOf, retryStateOf } from "./retry-policy.js";
import { routeOutbound, type Route } from "./routing.js";
import { MESSAGE_JOBS, type LifecycleJob } from "./follow-ups.js";
import { applyTransition, type Trigger } from "./status-table.js";

/**
 * The message a lifecycle job is about, unless it has moved on since the job was scheduled, read
 * in one statement with its group link and its recipient's contact (each job needs them).
 */
function current<R extends LifecycleRead>(
  read: R | undefined,
  job: LifecycleJob,
  status: MessageRow["status"],
): R | undefined {
  return read && read.row.generation === job.generation && read.row.status === status ? read : undefined;
}

/** The recipient's profile from the contact the read brought (a lifecycle message is outbound). */
const recipientOf = (read: LifecycleRead): ContactProfile => profileOf(read.row.remote_handle, read.contact);

const retryTrigger: Record<"transient" | "offline" | "rate_limited", Trigger> = {
  transient: "transient_error",
  offline: "number_offline",
  rate_limited: "rate_limited",
};

/**
 * One send attempt of a queued message (job `message.send`): route it, meet the number's
 * faults, then move it to sent, keep it queued for the retry policy, or fail it.
 */
export const runSendAttempt: JobHandler = (ctx, job: LifecycleJob) => {
  // The send attempt's read brings the number's faults too.
  const read = current(findSendMessage(ctx.db, job.message_id), job, "queued");
  if (!read) return;
  const { row } = read;
  const isGroup = read.groupId !== null;
  const now = ctx.clock.now();
  const number = numberByHandle(ctx, row.number_handle);
  const fail = (trigger: Trigger, error: string, changes = {}) =>
    applyTransition(ctx, row, trigger, {
      changes: { ...changes, error, first_attempt_at: row.first_attempt_at ?? now },
      isGroup,
    });
  if (!number) return void fail("permanent_error", `${row.number_handle} is no longer one of the account's numbers`);

  // A group message goes over its group's channel (no Android rule: the group exists on the network).
  const group = read.groupId === null ? undefined : groupById(ctx, read.groupId);
  let profile: ContactProfile | undefined;
  let route: Route;
  if (group) route = routeGroup(number, group);
  else {
    profile = recipientOf(read);
    route = routeOutbound(ctx, number, profile, row.requested_channel);
  }
  if ("error" in route) return void fail("permanent_error", route.error);
  if (row.has_attachments) {
    // Media caps are decided here, on the resolved channel.
    const media = prepareMessageMedia(ctx, row, route.channel, { kind: MESSAGE_JOBS.send, payload: job });
    if (media.kind === "failed") return void fail("permanent_error", media.error);
    // Transcoding takes real time, so it is a job of its own; it runs this attempt again when done.
    if (media.kind === "transcoding") return;
  }

  // Seeded chaos decides on a first attempt that would go out (docs/chaos.md).
  const outcome = chaosAtSend(ctx, row, meetFaults(ctx, number.handle, route.channel, now, read), now);
  if (outcome.kind === "ok") {
    applyTransition(ctx, row, "send_succeeded", {
      changes: { channel: route.channel, error: null, first_attempt_at: row.first_attempt_at ?? now },
      profile,
      members: group ? openReceipts(ctx, row, group) : undefined,
      isGroup,
    });
    setConversationChannel(ctx.db, row.conversation_id, route.channel);
    return;
  }
  if (outcome.kind === "permanent") return void fail("permanent_error", outcome.error);

  const decision = decideRetry(retryStateOf(row, now), outcome, now, number.handle);
  const bookkeeping = retryColumnsOf(decision.state);
  if (!decision.retry) return void fail("retries_exhausted", decision.error, bookkeeping);
  applyTransition(ctx, row, retryTrigger[outcome.kind], { changes: bookkeeping, nextAt: decision.at, isGroup });
};

/** The recipient's device acknowledges (job `message.acknowledge`); an unreachable one never does. */
export const runAcknowledge: JobHandler = (ctx, job: LifecycleJob) => {
  if (job.member !== undefined) return runMemberAcknowledge(ctx, { ...job, member: job.member });
  const read = current(findLifecycleMessage(ctx.db, job.message_id), job, "sent");
  if (!read) return;
  const { row } = read;
  const profile = recipientOf(read);
  if (profile.reachable && !receiptLost(ctx, row, "delivered"))
    applyTransition(ctx, row, "acknowledged", { profile, isGroup: read.groupId !== null });
};

/** The recipient reads the message (job `message.read`), where read receipts are on. */
export const runRead: JobHandler = (ctx, job: LifecycleJob) => {
  if (job.member !== undefined) return runMemberRead(ctx, { ...job, member: job.member });
  const read = current(findLifecycleMessage(ctx.db, job.message_id), job, "delivered");
  if (read && recipientOf(read).read_receipts && !receiptLost(ctx, read.row, "read"))
    applyTransition(ctx, read.row, "read", { isGroup: read.groupId !== null });
};
