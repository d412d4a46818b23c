import { Option, type Command } from "@commander-js/extra-typings";
import { action } from "../action.js";
import { PLATFORMS } from "../choices.js";
import { refuseFlagWithItsNegation } from "../opposite-flags.js";

/** `msgctl contacts list|set`: the phones on the other side. */
export function registerContactCommands(program: Command): void {
  const commands = () => import("../commands/contacts.js");
  const contacts = program
    .command("contacts")
    .description("the phones on the other side and what decides routing to them");
  contacts
    .command("list")
    .description("contacts on record, then the magic numbers")
    .action(action(commands, "contactsList"));
  const set = contacts
    .command("set <handle>")
    .description("set part of a contact's profile")
    .option("--imessage", "registered with iMessage")
    .option("--no-imessage", "not on iMessage (sends go by SMS)")
    .addOption(
      new Option("--platform <platform>", "ios or android (android turns iMessage off unless --imessage)").choices(
        PLATFORMS,
      ),
    )
    .option("--whatsapp", "on WhatsApp")
    .option("--no-whatsapp", "not on WhatsApp")
    .addOption(new Option("--reachable", "the phone acknowledges delivery").conflicts("unreachable"))
    .option("--unreachable", "messages stay sent, never delivered")
    .option("--read-receipts", "sends read receipts")
    .option("--no-read-receipts", "messages stop at delivered")
    .action(action(commands, "contactsSet"));
  refuseFlagWithItsNegation(set, ["--imessage", "--whatsapp", "--read-receipts"]);
}
