/** Rows of the accounts and their keys. */

/** An account of the sandbox. */
export interface AccountsTable {
  id: string;
  name: string;
  app_name: string;
  otp_suspended: number;
  /** Order in the fixture: the first account is the default one for commands. */
  position: number;
  created_at: number;
}

/** An account's key, kept by hash. */
export interface ApiKeysTable {
  /** SHA-256 hex of the key; keys are never stored in clear. */
  key_hash: string;
  account_id: string;
  kind: "messaging" | "otp";
  /** First characters of the key, for people to recognise it. */
  hint: string;
  created_at: number;
}

/** Every table of the accounts, as kysely sees it. */
export interface AccountTables {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
}
