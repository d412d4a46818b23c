import type { JsonObject } from "../../contract/common.js";
import { editBody, reactBody } from "../../contract/messages.js";
import { invalidState } from "../../lib/app-error.js";
import { parseInput } from "../../lib/validation.js";
import {
  findMessageAction,
  insertMessageAction,
  updateMessageAction,
  type MessageActionRow,
  findMessageById,
  updateMessage,
  type MessageRow,
} from "../../store/messages/index.js";
import { emitEvent, scheduleJob, type DomainContext, type JobHandler } from "../core/index.js";
import { meetFaults, type Channel } from "../world/index.js";
import { otherCopies } from "./group-delivery.js";
import { messageForPath } from "./queries.js";
import { requireReaction } from "./reactions.js";
import { decideRetry, freshRetryColumns, retryColumnsOf, retryStateOf } from "./retry-policy.js";
import { applyTransition, canTransition } from "./status-table.js";
import { editedFields, toMessage, type MessageResource } from "./views.js";

/** The job kind of a pending reaction, edit or unsend. */
export const ACTION_JOB = "message.action";

/** 409 unless the message went out over iMessage and is still there (edit and unsend, spec 4.3). */
function assertEditable(row: MessageRow, action: "edit" | "unsend"): void {
  if (row.direction !== "outbound")
    throw invalidState(`Only the account's own messages can be ${action === "edit" ? "edited" : "unsent"}`);
  if (row.status === "unsent") throw invalidState("The message was unsent");
  if (row.status === "queued") throw invalidState("The message has not been sent yet (status queued)");
  if (row.status === "failed")
    throw invalidState("The message failed and was never sent: retry it first (POST /v1/messages/:id/retry)");
  if (row.channel !== "imessage")
    throw invalidState(
      `${action === "edit" ? "Edit" : "Unsend"} is iMessage only; this message went by ${row.channel}`,
    );
}

/** Records an action and its first attempt, after the send latency; answers with the message. */
function queueAction(
  ctx: DomainContext,
  row: MessageRow,
  fields: Pick<MessageActionRow, "kind" | "reaction" | "remove" | "text">,
): MessageResource {
  ctx.db.transaction(() => {
    const at = ctx.clock.now();
    const id = ctx.ids.uuid();
    insertMessageAction(ctx.db, {
      id,
      account_id: row.account_id,
      message_id: row.id,
      ...fields,
      status: "pending",
      error: null,
      ...freshRetryColumns(),
      created_at: at,
      updated_at: at,
    });
    scheduleJob(ctx, ACTION_JOB, { action_id: id }, ctx.clock.now() + ctx.settings.sendLatencyMs);
  });
  return toMessage(ctx, row);
}

/** POST /v1/messages/:id/react: the target must be delivered (or read), on iMessage or WhatsApp. */
export function reactToMessage(ctx: DomainContext, accountId: string, id: string, input: JsonObject): MessageResource {
  const row = messageForPath(ctx, accountId, id);
  const body = parseInput(reactBody, input);
  requireReaction(body.reaction);
  if (row.status !== "delivered" && row.status !== "read")
    throw invalidState(`Reactions need a delivered message; this one is ${row.status}`);
  if (row.channel === "sms") throw invalidState("Reactions are not supported on SMS");
  return queueAction(ctx, row, { kind: "react", reaction: body.reaction, remove: body.remove ? 1 : 0, text: null });
}

/** POST /v1/messages/:id/edit: iMessage only, after sending; lands asynchronously. */
export function editMessage(ctx: DomainContext, accountId: string, id: string, input: JsonObject): MessageResource {
  const row = messageForPath(ctx, accountId, id);
  const body = parseInput(editBody, input);
  assertEditable(row, "edit");
  return queueAction(ctx, row, { kind: "edit", reaction: null, remove: 0, text: body.text });
}

/** POST /v1/messages/:id/unsend: iMessage only, after sending; lands asynchronously. */
export function unsendMessage(ctx: DomainContext, accountId: string, id: string): MessageResource {
  const row = messageForPath(ctx, accountId, id);
  assertEditable(row, "unsend");
  return queueAction(ctx, row, { kind: "unsend", reaction: null, remove: 0, text: null });
}

/** POST /v1/messages/:id/retry: failed → queued, with fresh retry bookkeeping. */
export function retryMessage(ctx: DomainContext, accountId: string, id: string): MessageResource {
  const row = messageForPath(ctx, accountId, id);
  if (row.direction !== "outbound" || !canTransition(row, "retried")) {
    throw invalidState(`Only failed messages can be retried; this one is ${row.status}`);
  }
  const next = ctx.db.transaction(() =>
    applyTransition(ctx, row, "retried", {
      changes: {
        error: null,
        ...freshRetryColumns(),
        generation: row.generation + 1,
      },
    }),
  );
  return toMessage(ctx, next);
}

/**
 * Makes an action take effect on its message, and on every other copy of a group message (each
 * member number's conversation sees the edit, with its own message.edited; spec 4.5).
 */
function land(ctx: DomainContext, action: MessageActionRow, message: MessageRow): void {
  if (action.kind === "edit") {
    for (const copy of [message, ...otherCopies(ctx, message)]) {
      const editedAt = ctx.clock.now();
      updateMessage(ctx.db, copy.id, { text: action.text, edited_at: editedAt, updated_at: ctx.clock.now() });
      emitEvent(
        ctx,
        copy.account_id,
        "message.edited",
        editedFields({ ...copy, text: action.text, edited_at: editedAt }),
      );
    }
  } else if (action.kind === "unsend") {
    applyTransition(ctx, message, "unsent");
    for (const copy of otherCopies(ctx, message))
      if (canTransition(copy, "unsent")) applyTransition(ctx, copy, "unsent");
  }
  // A reaction sent through the API changes nothing visible: message.reaction is for contacts' reactions.
}

/**
 * One attempt of a pending reaction, edit or unsend (job `message.action`). It meets the number's
 * faults and follows the send retry policy, but giving up only drops the action: the message is
 * never marked failed (spec section 3, last line).
 */
export const runActionAttempt: JobHandler = (ctx, payload: { action_id: string }) => {
  const action = findMessageAction(ctx.db, payload.action_id);
  if (!action || action.status !== "pending") return;
  const message = findMessageById(ctx.db, action.message_id);
  const now = ctx.clock.now();
  const drop = (error: string) => updateMessageAction(ctx.db, action.id, { status: "dropped", error, updated_at: now });
  if (!message || message.status === "unsent") return void drop("The message was unsent");
  if (action.kind === "unsend" && !canTransition(message, "unsent"))
    return void drop(`The message is ${message.status}`);

  const outcome = meetFaults(ctx, message.number_handle, message.channel as Channel, now);
  if (outcome.kind === "ok") {
    land(ctx, action, message);
    updateMessageAction(ctx.db, action.id, {
      status: "done",
      error: null,
      first_attempt_at: action.first_attempt_at ?? now,
      updated_at: now,
    });
    return;
  }
  if (outcome.kind === "permanent") return void drop(outcome.error);
  const decision = decideRetry(retryStateOf(action, now), outcome, now, message.number_handle);
  updateMessageAction(ctx.db, action.id, {
    ...retryColumnsOf(decision.state),
    updated_at: now,
    ...(decision.retry ? {} : { status: "dropped" as const, error: decision.error }),
  });
  if (decision.retry) scheduleJob(ctx, ACTION_JOB, { action_id: action.id }, decision.at);
};
