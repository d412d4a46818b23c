/** The accounts' rows: accounts, their keys (by hash), and the removal of an account with all it owns. */
export {
  deleteAccountData,
  findAccountByName,
  findKeyByHash,
  insertAccount,
  insertApiKey,
  listAccounts,
  nextAccountPosition,
} from "./accounts.js";
export type { AccountTables } from "./tables.js";
