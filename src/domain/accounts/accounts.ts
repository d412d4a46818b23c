import type { FixtureAccount } from "../../contract/fixture.js";
import type { AccountView } from "../../contract/control.js";
import { hashKey } from "../../lib/key-hash.js";
import { findKeyByHash, insertAccount, insertApiKey, listAccounts } from "../../store/accounts/index.js";
import { insertNumber } from "../../store/world/index.js";
import type { DomainContext } from "../core/index.js";
import { listAccountNumbers, type NumberResource } from "../world/index.js";
import type { Account } from "./authenticate.js";

/** An account just created, with its keys in clear: the only moment they are known. */
export interface CreatedAccount {
  name: string;
  api_key: string;
  otp_api_key: string;
  numbers: NumberResource[];
  /** Which keys were generated (shown once) rather than named by the fixture. */
  generated: { api_key: boolean; otp_api_key: boolean };
}

/** Every account, first (default) first. */
export function allAccounts(ctx: DomainContext): Account[] {
  return listAccounts(ctx.db).map((row) => ({
    id: row.id,
    name: row.name,
    appName: row.app_name,
    otpSuspended: row.otp_suspended === 1,
  }));
}

/**
 * Creates an account with its two keys and its numbers: keys left out are
 * generated. Keys are stored only as SHA-256 hashes. Call inside a transaction.
 */
export function createAccount(ctx: DomainContext, account: FixtureAccount, position: number): CreatedAccount {
  const id = ctx.ids.uuid();
  const createdAt = ctx.clock.now();
  insertAccount(ctx.db, {
    id,
    name: account.name,
    app_name: account.app_name,
    otp_suspended: account.otp_suspended ? 1 : 0,
    position,
    created_at: createdAt,
  });
  const apiKey = account.api_key ?? `sk_test_${ctx.ids.token(24)}`;
  const otpKey = account.otp_api_key ?? `otp_live_${ctx.ids.token(24)}`;
  insertApiKey(ctx.db, {
    key_hash: hashKey(apiKey),
    account_id: id,
    kind: "messaging",
    hint: apiKey.slice(0, 12),
    created_at: createdAt,
  });
  insertApiKey(ctx.db, {
    key_hash: hashKey(otpKey),
    account_id: id,
    kind: "otp",
    hint: otpKey.slice(0, 13),
    created_at: createdAt,
  });
  account.numbers.forEach((number, i) => {
    insertNumber(ctx.db, {
      handle: number.handle,
      account_id: id,
      channels: JSON.stringify(number.channels),
      label: number.label,
      whatsapp_api: number.whatsapp_api,
      position: i,
      created_at: createdAt,
    });
  });
  return {
    name: account.name,
    api_key: apiKey,
    otp_api_key: otpKey,
    numbers: account.numbers.map((n) => ({
      handle: n.handle,
      channels: n.channels,
      label: n.label,
      status: "online",
      ...(n.whatsapp_api ? { whatsapp_api: n.whatsapp_api } : {}),
    })),
    generated: { api_key: account.api_key === undefined, otp_api_key: account.otp_api_key === undefined },
  };
}

/** Keys that may be known in clear for an account (named by a fixture, or carried by a snapshot). */
export interface NamedKeys {
  name: string;
  api_key?: string | null;
  otp_api_key?: string | null;
}

/**
 * The accounts with the keys this process may show: created at this start (shown once), or
 * named by the fixture or a restored snapshot and still valid for this database. Any other key
 * was shown at an earlier start and is null: keys are kept only as hashes.
 */
export function accountsWithKnownKeys(
  ctx: DomainContext,
  created: readonly CreatedAccount[],
  named: readonly NamedKeys[],
): AccountView[] {
  const known = (key: string | null | undefined) => (key && findKeyByHash(ctx.db, hashKey(key)) ? key : null);
  const firstKnown = (name: string, kind: "api_key" | "otp_api_key") => {
    for (const keys of named) {
      const key = keys.name === name ? known(keys[kind]) : null;
      if (key) return key;
    }
    return null;
  };
  return allAccounts(ctx).map((account) => {
    const fresh = created.find((c) => c.name === account.name);
    return {
      name: account.name,
      api_key: known(fresh?.api_key) ?? firstKnown(account.name, "api_key"),
      otp_api_key: known(fresh?.otp_api_key) ?? firstKnown(account.name, "otp_api_key"),
      numbers: listAccountNumbers(ctx, account.id),
    };
  });
}
