import type { AccountView, CreateAccountInput } from "../contract/types.js";
import type { HttpClient } from "./http.js";

/** An account just made, with both its keys (shown this once). */
export type NewAccount = AccountView & { api_key: string; otp_api_key: string };

/** Accounts on demand (control API). */
export function accountsClient(http: HttpClient) {
  return {
    /** POST /sandbox/v1/accounts: a fresh account; its keys are shown only in this answer. */
    create: async (input: CreateAccountInput = {}) =>
      (await http.request<NewAccount>("messaging", "POST", "/sandbox/v1/accounts", { body: input ?? {} })).data,
    /** GET /sandbox/v1/accounts: every account, with the keys this sandbox may still show. */
    list: async () => (await http.request<AccountView[]>("messaging", "GET", "/sandbox/v1/accounts")).data,
    /** DELETE /sandbox/v1/accounts/:name: the account and all its data. */
    delete: async (name: string) =>
      (
        await http.request<{ name: string; deleted: true }>(
          "messaging",
          "DELETE",
          `/sandbox/v1/accounts/${encodeURIComponent(name)}`,
        )
      ).data,
  };
}
