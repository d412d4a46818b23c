import type { CreateAccountInput } from "../contract/types.js";
import { accountsClient, type NewAccount } from "./accounts.js";
import { createClient, type MsgctlClient } from "./client.js";
import type { ClientOptions } from "./http.js";

/** A fresh account of a running sandbox, a client bound to it, and a way to remove it. */
export interface IsolatedAccount {
  account: NewAccount;
  client: MsgctlClient;
  /** Deletes the account and everything it made. */
  delete(): Promise<void>;
}

/**
 * Connects to a running sandbox with any key it knows and makes a fresh account of its own: what a
 * parallel test worker calls so its messages, events, webhooks and idempotency keys are its own.
 * The clock and the contacts of the simulated world stay shared (docs/control-api.md, "Accounts").
 */
export async function createAccount(
  connection: ClientOptions,
  input: CreateAccountInput = {},
): Promise<IsolatedAccount> {
  const admin = createClient(connection);
  const account = await accountsClient(admin.http).create(input);
  const client = createClient({ ...connection, apiKey: account.api_key, otpApiKey: account.otp_api_key });
  return {
    account,
    client,
    delete: async () => {
      await accountsClient(admin.http).delete(account.name);
    },
  };
}
