import { randomUUID } from "node:crypto";
import { allAccounts } from "../../src/domain/accounts/index.js";
import type { DomainContext } from "../../src/domain/core/index.js";
import { emitEvent, type EmittedEvent, type EventType } from "../../src/domain/core/index.js";

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
  return ctx.db.transaction(() => emitEvent(ctx, account.id, type, { message_id: randomUUID(), ...fields } as never));
}
