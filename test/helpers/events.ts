import { allAccounts } from "../../src/domain/accounts/index.js";
import {
  emitEvent,
  type DomainContext,
  type EmittedEvent,
  type EventFields,
  type EventType,
} from "../../src/domain/core/index.js";

/** A UUID for a fabricated event, made from a short name: `id("a")` → 00000000-0000-4000-8000-000000000061. */
export const id = (name: string) =>
  `00000000-0000-4000-8000-${Buffer.from(name).toString("hex").slice(-12).padStart(12, "0")}`;

let counter = 0;

/**
 * Complete, valid payload fields of a lifecycle event (they conform to the OpenAPI document),
 * for tests that fabricate events: `message_id` and anything else can be set.
 */
export function lifecycleFields(
  type: "message.sent" | "message.delivered" | "message.read" | "message.failed",
  overrides: Record<string, unknown> = {},
): EventFields<"message.sent"> {
  const status = type.slice("message.".length) as "sent" | "delivered" | "read" | "failed";
  return {
    message_id: id(`m${++counter}`),
    conversation_id: id("c"),
    status,
    channel: "imessage",
    from: "+14155550101",
    to: "+14155550191",
    ...overrides,
  } as EventFields<"message.sent">;
}

/**
 * Emits an event for the first (or named) account as a state change would: in a transaction,
 * so webhook fan-out runs with it. Lets webhook tests run without the messages module.
 */
export function emitTestEvent(
  ctx: DomainContext,
  type: EventType = "message.sent",
  fields: Record<string, unknown> = {},
  accountName?: string,
): EmittedEvent {
  const accounts = allAccounts(ctx);
  const account = accountName ? accounts.find((a) => a.name === accountName) : accounts[0];
  if (!account) throw new Error(`no account ${accountName ?? ""}`);
  const lifecycle =
    type === "message.sent" || type === "message.delivered" || type === "message.read" || type === "message.failed";
  // Other types get what the test gives (and a message_id): only lifecycle events need to conform.
  const payload = lifecycle ? lifecycleFields(type, fields) : { message_id: id(`e${++counter}`), ...fields };
  return ctx.db.transaction(() => emitEvent(ctx, account.id, type, payload as never) as EmittedEvent);
}

export type { EventType };
