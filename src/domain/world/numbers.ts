import type { Channel } from "../../contract/common.js";
import type { NumberResource } from "../../contract/numbers.js";
import { findNumber, listNumbers, type NumbersTable } from "../../store/world/index.js";
import { cacheOf, type DomainContext } from "../core/index.js";
import { numberStatus } from "./number-faults.js";

export type { Channel, NumberResource };

/** One of the account's numbers as a domain value. */
export interface AccountNumber {
  handle: string;
  accountId: string;
  channels: Channel[];
  label: string;
  whatsappApi: "linked" | "cloud" | null;
}

function toAccountNumber(row: NumbersTable): AccountNumber {
  return {
    handle: row.handle,
    accountId: row.account_id,
    channels: JSON.parse(row.channels) as Channel[],
    label: row.label,
    whatsappApi: row.whatsapp_api,
  };
}

/** GET /v1/numbers (spec 4.1): the account's numbers, in fixture order. */
export function listAccountNumbers(ctx: DomainContext, accountId: string): NumberResource[] {
  return listNumbers(ctx.db, accountId).map((row) => toNumberResource(ctx, toAccountNumber(row)));
}

/** The Number resource for one number. */
function toNumberResource(ctx: DomainContext, number: AccountNumber): NumberResource {
  const resource: NumberResource = {
    handle: number.handle,
    channels: number.channels,
    label: number.label,
    status: numberStatus(ctx, number.handle),
  };
  if (number.whatsappApi) resource.whatsapp_api = number.whatsappApi;
  return resource;
}

/** The account's number with this handle, or undefined (also when another account owns it). */
export function findAccountNumber(ctx: DomainContext, accountId: string, handle: string): AccountNumber | undefined {
  const row = findNumber(ctx.db, handle);
  return row && row.account_id === accountId ? toAccountNumber(row) : undefined;
}

/** Any account's number with this handle (for inbound simulation). */
function findAnyNumber(ctx: DomainContext, handle: string): AccountNumber | undefined {
  const row = findNumber(ctx.db, handle);
  return row ? toAccountNumber(row) : undefined;
}

/**
 * Any account's number by handle, remembered until a reset (numbers only change by re-seeding):
 * the send endpoint and every lifecycle job look numbers up.
 */
export function numberByHandle(ctx: DomainContext, handle: string): AccountNumber | undefined {
  const cache = cacheOf<string, AccountNumber | null>(ctx, "numbers-by-handle");
  let number = cache.get(handle);
  if (number === undefined) {
    number = findAnyNumber(ctx, handle) ?? null;
    // Misses are remembered too; bounded, since any valid number can be asked about.
    if (cache.size >= 10_000) cache.clear();
    cache.set(handle, number);
  }
  return number ?? undefined;
}
