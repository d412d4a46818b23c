import type { Db } from "../engine/db.js";
import type { AccountsTable, ApiKeysTable } from "./tables.js";
import { listNumbers } from "../world/index.js";

/** Inserts an account row. */
export function insertAccount(db: Db, row: AccountsTable): void {
  db.run(db.q.insertInto("accounts").values(row));
}

/** Inserts a key row (hash only). */
export function insertApiKey(db: Db, row: ApiKeysTable): void {
  db.run(db.q.insertInto("api_keys").values(row));
}

/** The key row with this hash, with its account. */
export function findKeyByHash(db: Db, keyHash: string) {
  return db.first(
    db.q
      .selectFrom("api_keys")
      .innerJoin("accounts", "accounts.id", "api_keys.account_id")
      .select([
        "api_keys.key_hash",
        "api_keys.kind",
        "accounts.id",
        "accounts.name",
        "accounts.app_name",
        "accounts.otp_suspended",
      ])
      .where("api_keys.key_hash", "=", keyHash),
  );
}

/** Every account, in fixture order. */
export function listAccounts(db: Db): AccountsTable[] {
  return db.all(db.q.selectFrom("accounts").selectAll().orderBy("position"));
}

/** One account by name. */
export function findAccountByName(db: Db, name: string): AccountsTable | undefined {
  return db.first(db.q.selectFrom("accounts").selectAll().where("name", "=", name));
}

/** The position after the last account (accounts list in the order they were made). */
export function nextAccountPosition(db: Db): number {
  const row = db.first(db.q.selectFrom("accounts").select((eb) => eb.fn.max("position").as("last")));
  return (row?.last ?? -1) + 1;
}

/**
 * Removes an account and everything that is its own: every row of every table with an
 * `account_id` column (so tables added later are covered too), its numbers' faults, then the
 * account, whose keys and numbers go with it. Call inside a transaction.
 */
export function deleteAccountData(db: Db, accountId: string): void {
  const handles = listNumbers(db, accountId).map((number) => number.handle);
  if (handles.length > 0) db.run(db.q.deleteFrom("number_faults").where("handle", "in", handles));
  for (const table of db.tablesWithColumn("account_id")) {
    if (table !== "accounts") db.deleteWhere(table, "account_id", accountId);
  }
  db.run(db.q.deleteFrom("accounts").where("id", "=", accountId));
}
