import {
  findGroupMessage,
  findReceipt,
  insertReceipts,
  listCopyIds,
  updateReceipt,
  findMessageById,
  type MessageRow,
} from "../../store/messages/index.js";
import { receiptLost } from "../chaos/index.js";
import { conversationOfNumber, GROUP_KINDS, groupById, touchThread, type Group } from "../conversations/index.js";
import { nextListTime, type DomainContext } from "../core/index.js";
import { numberByHandle, type AccountNumber } from "../world/index.js";
import { recordInbound } from "./receive.js";
import { memberTraits } from "./recipients.js";
import type { Route } from "./routing.js";
import type { LifecycleJob } from "./follow-ups.js";
import { applyTransition, scheduleFollowUps } from "./status-table.js";

/**
 * Group messages (spec 4.5, 6): a group message goes to every member, and each member's device
 * acknowledges and reads on its own. The message is `delivered` at the first member's
 * acknowledgement and `read` at the first member's read (as an iPhone shows "Delivered" and
 * "Read" in a group): one message.delivered and one message.read per message, since receivers
 * dedupe on message_id plus type. Each member's receipt is on the Message (`recipients`).
 */

/** The group of a group message (either direction), or undefined for a one-to-one message. */
export function groupOfMessage(ctx: DomainContext, row: MessageRow): Group | undefined {
  const link = findGroupMessage(ctx.db, row.id);
  return link ? groupById(ctx, link.group_id) : undefined;
}

/** The channel of a group message at its send attempt: the group's, while the number is still a member. */
export function routeGroup(number: AccountNumber, group: Group): Route {
  if (!group.members.includes(number.handle)) return { error: `${number.handle} is no longer a member of this group` };
  const channel = GROUP_KINDS[group.kind].channel;
  if (!number.channels.includes(channel)) return { error: `${number.handle} does not serve ${channel}` };
  return { channel };
}

/** The members a group message goes to as it leaves (everyone but its sender), each with an open receipt. */
export function openReceipts(ctx: DomainContext, row: MessageRow, group: Group): string[] {
  const members = group.members.filter((handle) => handle !== row.number_handle);
  insertReceipts(ctx.db, row.id, members);
  return members;
}

/**
 * One of the account's numbers in the group receives its copy of a group message sent by another
 * of them: an inbound message in its own conversation, with its own message.received and its own
 * copies of the attachments (as delivered).
 */
function deliverCopy(ctx: DomainContext, row: MessageRow, memberNumber: string): void {
  const group = groupOfMessage(ctx, row);
  if (!group || row.channel === null) return;
  const createdAt = nextListTime(ctx, "messages", row.account_id);
  const conversation = touchThread(ctx, conversationOfNumber(ctx, group, memberNumber, createdAt), createdAt);
  const media = row.has_attachments ? { copyOf: row.id, voiceMemo: row.voice_memo === 1 } : undefined;
  recordInbound(ctx, {
    conversation,
    from: row.number_handle,
    channel: row.channel,
    text: row.text,
    createdAt,
    group: { id: group.id, originId: row.id },
    media,
  });
}

/**
 * A member's device acknowledges (or is forced to): its receipt, its copy when it is one of the
 * account's numbers, the message `delivered` when it is the first, and its own read after the
 * read delay where it sends read receipts.
 */
export function acknowledgeByMember(
  ctx: DomainContext,
  row: MessageRow,
  member: string,
  options: { schedule?: boolean } = {},
): MessageRow {
  const receipt = findReceipt(ctx.db, row.id, member);
  if (!receipt || receipt.delivered_at !== null) return row;
  updateReceipt(ctx.db, row.id, member, { delivered_at: ctx.clock.now() });
  const own = numberByHandle(ctx, member);
  if (own && own.accountId === row.account_id) deliverCopy(ctx, row, member);
  const follow = { members: [member], schedule: options.schedule };
  if (row.status === "sent") return applyTransition(ctx, row, "acknowledged", follow);
  if (options.schedule !== false) scheduleFollowUps(ctx, row, "acknowledged", follow);
  return row;
}

/** A member reads a group message: its receipt, and the message `read` when it is the first. */
export function readByMember(ctx: DomainContext, row: MessageRow, member: string): MessageRow {
  const receipt = findReceipt(ctx.db, row.id, member);
  if (!receipt || receipt.delivered_at === null || receipt.read_at !== null) return row;
  updateReceipt(ctx.db, row.id, member, { read_at: ctx.clock.now() });
  return row.status === "delivered" ? applyTransition(ctx, row, "read", { members: [member] }) : row;
}

/** The group message a member's job is about, unless it moved on (retried, forced, unsent, failed). */
function currentForMember(
  ctx: DomainContext,
  job: LifecycleJob,
  statuses: readonly MessageRow["status"][],
): MessageRow | undefined {
  const row = findMessageById(ctx.db, job.message_id);
  return row && row.generation === job.generation && statuses.includes(row.status) ? row : undefined;
}

/** Job `message.acknowledge` for one member; an unreachable member never acknowledges. */
export function runMemberAcknowledge(ctx: DomainContext, job: LifecycleJob & { member: string }): void {
  const row = currentForMember(ctx, job, ["sent", "delivered", "read"]);
  if (!row || !memberTraits(ctx, row.account_id, job.member).reachable) return;
  if (!receiptLost(ctx, row, "delivered", job.member)) acknowledgeByMember(ctx, row, job.member);
}

/** Job `message.read` for one member, where it sends read receipts. */
export function runMemberRead(ctx: DomainContext, job: LifecycleJob & { member: string }): void {
  const row = currentForMember(ctx, job, ["delivered", "read"]);
  if (!row || !memberTraits(ctx, row.account_id, job.member).read_receipts) return;
  if (!receiptLost(ctx, row, "read", job.member)) readByMember(ctx, row, job.member);
}

/** The other copies of a group message (each member number's, spec 4.5); none for one-to-one messages. */
export function otherCopies(ctx: DomainContext, row: MessageRow): MessageRow[] {
  const link = findGroupMessage(ctx.db, row.id);
  if (!link) return [];
  return listCopyIds(ctx.db, link.origin_id)
    .filter((id) => id !== row.id)
    .flatMap((id) => findMessageById(ctx.db, id) ?? []);
}
