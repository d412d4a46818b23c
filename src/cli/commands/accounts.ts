import type { AccountView } from "../../contract/index.js";
import type { NewAccount } from "../../client/accounts.js";
import { connect, resolveConnection, stateDirOf, type ConnectionFlags } from "../connection.js";
import { details, table, type Output } from "../output.js";
import { stateFilePath, updateStateFile, type StateFile } from "../state-file.js";
import { UsageError } from "../usage-error.js";

/**
 * Changes the accounts of the state file, when that file describes the sandbox this command
 * talked to. The sandbox keeps keys only as hashes, so the keys of an account made on demand are
 * known nowhere else: remembered here, `--account NAME` can select it. Returns the file's path
 * when it was changed.
 */
async function changeStateAccounts(
  options: ConnectionFlags,
  change: (accounts: StateFile["accounts"]) => StateFile["accounts"],
): Promise<string | undefined> {
  const sameUrl = (a: string, b: string) => a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
  const { baseUrl } = resolveConnection(options);
  const stateDir = stateDirOf(options);
  const written = await updateStateFile(stateDir, (state) =>
    sameUrl(state.base_url, baseUrl) ? { ...state, accounts: change(state.accounts) } : undefined,
  );
  return written ? stateFilePath(stateDir) : undefined;
}

/** `msgctl accounts create [--name N] [--numbers K] [--whatsapp linked|cloud]`: a fresh account; its keys are shown this once. */
export async function accountsCreate(
  options: ConnectionFlags & { name?: string; numbers?: number; whatsapp?: "linked" | "cloud" },
  out: Output,
): Promise<NewAccount> {
  if (options.numbers !== undefined && (options.numbers < 1 || options.numbers > 20))
    throw new UsageError("--numbers must be from 1 to 20");
  const account = await connect(options).accounts.create({
    name: options.name,
    number_count: options.numbers,
    whatsapp: options.whatsapp,
  });
  const { name, api_key, otp_api_key, numbers } = account;
  const remembered = await changeStateAccounts(options, (accounts) => [
    ...accounts.filter((a) => a.name !== name),
    { name, api_key, otp_api_key, numbers },
  ]);
  out.result(account, (a) => [
    out.color.green(`Created account ${a.name}`),
    ...details(out.color, [
      ["api_key", a.api_key],
      ["otp_api_key", a.otp_api_key],
      [
        "numbers",
        a.numbers.map((n) => (n.whatsapp_api ? `${n.handle} (whatsapp ${n.whatsapp_api})` : n.handle)).join(", "),
      ],
    ]),
    out.color.dim(
      remembered
        ? `The keys are shown only now, and kept in ${remembered}: select the account with --account ${JSON.stringify(a.name)}.`
        : "The keys are shown only now.",
    ),
  ]);
  return account;
}

/** `msgctl accounts list`. */
export async function accountsList(options: ConnectionFlags, out: Output): Promise<AccountView[]> {
  const accounts = await connect(options).accounts.list();
  out.result(accounts, (list) =>
    table(
      out.color,
      ["ACCOUNT", "API KEY", "OTP KEY", "NUMBERS"],
      list.map((a) => [
        a.name,
        a.api_key ?? out.color.dim("(shown once)"),
        a.otp_api_key ?? out.color.dim("(shown once)"),
        a.numbers.map((n) => n.handle).join(", "),
      ]),
    ),
  );
  return accounts;
}

/** `msgctl accounts delete NAME`: the account and all its data (and its keys in the state file). */
export async function accountsDelete(
  name: string,
  options: ConnectionFlags,
  out: Output,
): Promise<{ name: string; deleted: true }> {
  const result = await connect(options).accounts.delete(name);
  await changeStateAccounts(options, (accounts) => accounts.filter((a) => a.name !== name));
  out.result(result, () => out.color.green(`Deleted account ${name} and its data.`));
  return result;
}
