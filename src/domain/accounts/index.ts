/** Accounts (spec section 5): keys of two kinds, what each key may see, accounts made from fixtures. */
export { accountsWithKnownKeys, allAccounts, createAccount, type CreatedAccount, type NamedKeys } from "./accounts.js";
export { authenticate, type Account, type KeyKind } from "./authenticate.js";
export { createAccountOnDemand, deleteAccountOnDemand } from "./on-demand.js";
