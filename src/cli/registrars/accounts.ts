import { Option, type Command } from "@commander-js/extra-typings";
import { action } from "../action.js";
import { WHATSAPP_APIS } from "../choices.js";
import { DEFAULT_ACCOUNT_NUMBERS } from "../defaults.js";
import { wholeNumber } from "../flag-parsers.js";

/** `msgctl numbers` and `accounts create|list|delete`: an account and its numbers. */
export function registerAccountCommands(program: Command): void {
  program
    .command("numbers")
    .description("list the account's numbers (GET /v1/numbers)")
    .action(action(() => import("../commands/numbers.js"), "numbersList"));

  const commands = () => import("../commands/accounts.js");
  const accounts = program
    .command("accounts")
    .description("accounts on demand, for parallel test workers sharing one sandbox");
  accounts
    .command("create")
    .description("make a fresh account with its own keys and pool numbers (keys shown once)")
    .option("--name <name>", "account name (default: account-<n>)")
    .option("--numbers <count>", "how many pool numbers (1-20)", wholeNumber, DEFAULT_ACCOUNT_NUMBERS)
    .addOption(
      new Option(
        "--whatsapp <kind>",
        "one more pool number, for WhatsApp: linked (a linked device: groups, may need re-linking) or cloud (the WhatsApp Cloud API: no groups)",
      ).choices(WHATSAPP_APIS),
    )
    .action(action(commands, "accountsCreate"));
  accounts.command("list").description("every account with its numbers").action(action(commands, "accountsList"));
  accounts
    .command("delete <name>")
    .description("delete an account and all its data")
    .action(action(commands, "accountsDelete"));
}
