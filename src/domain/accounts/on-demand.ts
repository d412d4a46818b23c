import { createAccountBody } from "../../contract/accounts.js";
import type { FixtureAccount } from "../../contract/fixture.js";
import { invalidRequest, invalidState, notFound } from "../../lib/app-error.js";
import { hashKey } from "../../lib/key-hash.js";
import { parseInput } from "../../lib/validation.js";
import {
  deleteAccountData,
  findAccountByName,
  findKeyByHash,
  listAccounts,
  nextAccountPosition,
} from "../../store/accounts/index.js";
import { findNumber } from "../../store/world/index.js";
import { resetCaches, type DomainContext } from "../core/index.js";
import { createAccount, type CreatedAccount } from "./accounts.js";

/**
 * Accounts on demand (`accounts create|list|delete`): test suites whose
 * parallel workers share one sandbox each make an isolated account. What stays shared: the clock,
 * the contacts of the simulated world, and OTP limits per phone across accounts.
 */

/**
 * The pool numbers come from when a request names none: fictional numbers (555-0100 to 0199)
 * behind real area codes, the Bay Area's first. The fixture's 415 range is left to fixtures.
 */
const NUMBER_POOL_AREA_CODES = ["628", "650", "510", "925", "707", "408", "669", "209"] as const;

/** Free pool numbers, in pool order. */
function poolNumbers(ctx: DomainContext, count: number): string[] {
  const free: string[] = [];
  for (const area of NUMBER_POOL_AREA_CODES) {
    for (let line = 100; line <= 199 && free.length < count; line++) {
      const handle = `+1${area}5550${line}`;
      if (!findNumber(ctx.db, handle)) free.push(handle);
    }
  }
  if (free.length < count)
    throw invalidState("The number pool is used up: delete accounts, or name the numbers in the request");
  return free;
}

/** `count` iMessage and SMS numbers from the pool, then one WhatsApp number of the kind asked for. */
function poolAccountNumbers(
  ctx: DomainContext,
  count: number,
  whatsapp: "linked" | "cloud" | undefined,
): FixtureAccount["numbers"] {
  const handles = poolNumbers(ctx, count + (whatsapp ? 1 : 0));
  const numbers: FixtureAccount["numbers"] = handles.slice(0, count).map((handle, i) => ({
    handle,
    channels: ["imessage", "sms"],
    label: `pool ${i + 1}`,
    whatsapp_api: null,
  }));
  const whatsappHandle = handles[count];
  if (whatsapp && whatsappHandle)
    numbers.push({ handle: whatsappHandle, channels: ["whatsapp"], label: `pool whatsapp`, whatsapp_api: whatsapp });
  return numbers;
}

/** POST /sandbox/v1/accounts: a fresh account with its keys, shown once (201). */
export function createAccountOnDemand(ctx: DomainContext, input: unknown): CreatedAccount {
  const body = parseInput(createAccountBody, input) ?? { otp_suspended: false };
  return ctx.db.transaction(() => {
    const position = nextAccountPosition(ctx.db);
    const name = body.name ?? `account-${position + 1}`;
    if (findAccountByName(ctx.db, name)) throw invalidRequest(`name: an account named "${name}" exists already`);
    for (const [field, key] of [
      ["api_key", body.api_key],
      ["otp_api_key", body.otp_api_key],
    ] as const) {
      if (key !== undefined && findKeyByHash(ctx.db, hashKey(key)))
        throw invalidRequest(`${field}: that key belongs to another account`);
    }
    const numbers: FixtureAccount["numbers"] =
      body.numbers ?? poolAccountNumbers(ctx, body.number_count ?? 1, body.whatsapp);
    for (const [i, number] of numbers.entries()) {
      if (findNumber(ctx.db, number.handle))
        throw invalidRequest(`numbers[${i}].handle: ${number.handle} belongs to another account`);
    }
    const account: FixtureAccount = {
      name,
      app_name: body.app_name ?? name,
      api_key: body.api_key,
      otp_api_key: body.otp_api_key,
      otp_suspended: body.otp_suspended,
      numbers,
    };
    const created = createAccount(ctx, account, position);
    // Numbers and keys are cached (misses too): a new account's must be seen at once.
    ctx.db.afterCommit(() => resetCaches(ctx));
    return created;
  });
}

/** DELETE /sandbox/v1/accounts/:name: the account and all its data; the last account stays. */
export function deleteAccountOnDemand(ctx: DomainContext, name: string): { name: string; deleted: true } {
  return ctx.db.transaction(() => {
    const row = findAccountByName(ctx.db, name);
    if (!row) throw notFound(`Account ${name}`);
    if (listAccounts(ctx.db).length === 1)
      throw invalidState("The last account cannot be deleted: the sandbox needs one (reset re-seeds instead)");
    deleteAccountData(ctx.db, row.id);
    ctx.db.afterCommit(() => resetCaches(ctx));
    return { name, deleted: true as const };
  });
}
