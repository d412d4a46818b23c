import { simulateFailBody as failBody } from "../../contract/world.js";
import { invalidState } from "../../lib/app-error.js";
import { parseInput } from "../../lib/validation.js";
import { setConversationChannel } from "../../store/conversations/index.js";
import { listReceipts, updateMessage, type MessageRow } from "../../store/messages/index.js";
import { GROUP_KINDS, type Group } from "../conversations/index.js";
import type { DomainContext } from "../core/index.js";
import {
  acknowledgeByMember,
  applyTransition,
  canTransition,
  groupOfMessage,
  openReceipts,
  readByMember,
  messageForPath,
  toMessage,
  type MessageResource,
  type TransitionOptions,
  type Trigger,
} from "../messages/index.js";
import { contactProfile, numberByHandle, type Channel } from "../world/index.js";

/** The forward path of an outbound message, and the trigger that leaves each step. */
const FORWARD: readonly { status: MessageRow["status"]; leave: Trigger }[] = [
  { status: "queued", leave: "send_succeeded" },
  { status: "sent", leave: "acknowledged" },
  { status: "delivered", leave: "read" },
  { status: "read", leave: "read" },
];

/** The channel a forced send takes: routing's choice, without its refusals (the caller insists). */
function forcedChannel(ctx: DomainContext, row: MessageRow): Channel {
  if (row.requested_channel === "whatsapp") return "whatsapp";
  const channels = numberByHandle(ctx, row.number_handle)?.channels ?? ["imessage"];
  if (contactProfile(ctx, row.remote_handle).imessage && channels.includes("imessage")) return "imessage";
  return channels.includes("sms") ? "sms" : (channels[0] ?? "imessage");
}

/**
 * `simulate delivered|read ID`: moves an outbound message forward through
 * every state in between, firing each event in order; what follows the target (read after
 * delivered) then happens as usual. From failed or unsent, or not forward: 409 invalid_state.
 */
export function simulateProgress(
  ctx: DomainContext,
  accountId: string,
  id: string,
  target: "delivered" | "read",
): MessageResource {
  let row = messageForPath(ctx, accountId, id);
  if (row.direction !== "outbound") throw invalidState("Only outbound messages can be moved forward");
  const from = FORWARD.findIndex((step) => step.status === row.status);
  const to = FORWARD.findIndex((step) => step.status === target);
  if (from < 0) throw invalidState(`The message is ${row.status}; it cannot become ${target}`);
  if (from >= to) throw invalidState(`The message is already ${row.status}; it cannot move back or stay`);
  const group = groupOfMessage(ctx, row);
  if (group)
    return toMessage(
      ctx,
      ctx.db.transaction(() => forceGroupMessage(ctx, row, group, target)),
    );
  return ctx.db.transaction(() => {
    // A new generation makes the jobs scheduled for the old path stale.
    let changes: TransitionOptions["changes"] = { generation: row.generation + 1 };
    for (let step = from; step < to; step++) {
      const trigger = FORWARD[step]!.leave;
      if (trigger === "send_succeeded") {
        const channel = forcedChannel(ctx, row);
        changes = { ...changes, channel, error: null, first_attempt_at: row.first_attempt_at ?? ctx.clock.now() };
        setConversationChannel(ctx.db, row.conversation_id, channel);
      }
      row = applyTransition(ctx, row, trigger, { changes, schedule: step === to - 1 });
      changes = {};
    }
    return toMessage(ctx, row);
  });
}

/**
 * `simulate delivered|read` on a group message: every member's device acknowledges now (and reads,
 * for `read`), whatever its profile; the first one moves the message, as the lifecycle does.
 * After a forced `delivered`, members with read receipts on read it after the usual delay.
 */
function forceGroupMessage(
  ctx: DomainContext,
  original: MessageRow,
  group: Group,
  target: "delivered" | "read",
): MessageRow {
  // A new generation makes the member jobs scheduled for the old path stale.
  let row: MessageRow = { ...original, generation: original.generation + 1 };
  if (row.status === "queued") {
    const channel = GROUP_KINDS[group.kind].channel;
    const changes = {
      channel,
      error: null,
      first_attempt_at: row.first_attempt_at ?? ctx.clock.now(),
      generation: row.generation,
    };
    row = applyTransition(ctx, original, "send_succeeded", {
      changes,
      members: openReceipts(ctx, original, group),
      schedule: false,
    });
    setConversationChannel(ctx.db, row.conversation_id, channel);
  } else {
    updateMessage(ctx.db, row.id, { generation: row.generation });
  }
  const receipts = () => listReceipts(ctx.db, row.id);
  for (const receipt of receipts()) {
    if (receipt.delivered_at === null)
      row = acknowledgeByMember(ctx, row, receipt.handle, { schedule: target === "delivered" });
  }
  if (target === "read")
    for (const receipt of receipts()) if (receipt.read_at === null) row = readByMember(ctx, row, receipt.handle);
  return row;
}

/** `simulate fail ID [--error T]`: a queued or sent message fails with `error` and message.failed. */
export function simulateFailure(ctx: DomainContext, accountId: string, id: string, input: unknown): MessageResource {
  const row = messageForPath(ctx, accountId, id);
  const body = parseInput(failBody, input);
  if (row.direction !== "outbound") throw invalidState("Only outbound messages can fail");
  if (!canTransition(row, "simulated_failure"))
    throw invalidState(`A ${row.status} message cannot fail (only queued or sent ones)`);
  const error = body?.error ?? "Simulated failure (msgctl simulate fail)";
  const next = ctx.db.transaction(() =>
    applyTransition(ctx, row, "simulated_failure", { changes: { error, generation: row.generation + 1 } }),
  );
  return toMessage(ctx, next);
}
