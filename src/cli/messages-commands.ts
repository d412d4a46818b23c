import { InvalidArgumentError, Option, type Command } from "commander";
import { MESSAGE_STATUSES } from "../contract/statuses.js";
import { addGroupSimulateCommands } from "./chats-commands.js";
import { wholeNumber } from "./flag-parsers.js";
import { refuseFlagWithItsNegation } from "./opposite-flags.js";
import type { action as Action } from "./program.js";

const seconds = (value: string) => {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0)
    throw new InvalidArgumentError("must be a number of seconds above 0");
  return Number(value);
};

/**
 * `msgctl send`, `messages …`, `availability`, `contacts …` and `simulate …` (SANDBOX.md section 6):
 * maps flags to options and lazily imports the command functions, like program.ts.
 */
export function addMessageCommands(program: Command, action: typeof Action): void {
  const messages = () => import("./commands/messages.js");
  const simulate = () => import("./commands/simulate.js");
  const contacts = () => import("./commands/contacts.js");

  // --- Sending ---
  program
    .command("send")
    .description("send a message (POST /v1/messages), optionally waiting until it is sent, delivered or read")
    .option("--to <handle>", "recipient: E.164 number or iMessage email")
    .option("--from <number>", "one of the account's numbers")
    .option("--conversation <id>", "send into an existing thread instead of --to/--from")
    .option("--text <text>", "message text")
    .option("--attach <files...>", "upload these files, then send them (repeatable; up to 10)")
    .addOption(
      new Option("--channel <channel>", "force WhatsApp (iMessage or SMS is chosen per recipient)").choices([
        "whatsapp",
      ]),
    )
    .option("--effect <id>", "iMessage bubble or screen effect")
    .option("--reply-to <id>", "reply in a thread to one of your messages")
    .option("--voice-memo", "audio attachments render as voice notes")
    .addOption(
      new Option("--media-quality <quality>", "fit: transcode to the cap; original: never").choices([
        "fit",
        "original",
      ]),
    )
    .option("--idempotency-key <key>", "repeat-safe send: the same key returns the same message")
    .addOption(
      new Option("--wait <status>", "block until the message is at this status or past it").choices([
        "sent",
        "delivered",
        "read",
      ]),
    )
    .option("--timeout <duration>", "real time to wait with --wait", "10s")
    .action(action(async (flags, out) => (await messages()).send(flags, out)));

  const list = program.command("messages").description("list, read and act on messages");
  list
    .command("list")
    .description("messages, newest first (GET /v1/messages)")
    .option("--conversation <id>", "only this thread's")
    .option("--limit <n>", "page size (1-100)", wholeNumber, 50)
    .option("--before <time>", "only messages created before this ISO time (the next page)")
    .option("--all", "every page")
    .action(action(async (flags, out) => (await messages()).messagesList(flags, out)));
  list
    .command("get <id>")
    .description("one message")
    .action(action(async (flags, out, id: string) => (await messages()).messagesGet(id, flags, out)));
  list
    .command("react <id>")
    .description("react to a delivered message (iMessage or WhatsApp)")
    .requiredOption("--reaction <reaction>", "love, like, dislike, laugh, emphasize, question, or one emoji")
    .option("--remove", "remove the reaction")
    .action(action(async (flags, out, id: string) => (await messages()).messagesAction("react", id, flags, out)));
  list
    .command("edit <id>")
    .description("edit a sent iMessage (lands asynchronously)")
    .requiredOption("--text <text>", "the new text")
    .action(action(async (flags, out, id: string) => (await messages()).messagesAction("edit", id, flags, out)));
  list
    .command("unsend <id>")
    .description("unsend a sent iMessage (lands asynchronously)")
    .action(action(async (flags, out, id: string) => (await messages()).messagesAction("unsend", id, flags, out)));
  list
    .command("retry <id>")
    .description("queue a failed message again")
    .action(action(async (flags, out, id: string) => (await messages()).messagesAction("retry", id, flags, out)));

  program
    .command("availability <handle>")
    .description("is HANDLE on iMessage, and which channel a send would use")
    .action(action(async (flags, out, handle: string) => (await messages()).availability(handle, flags, out)));

  // --- The simulated world ---
  const people = program
    .command("contacts")
    .description("the phones on the other side and what decides routing to them");
  people
    .command("list")
    .description("contacts on record, then the magic numbers")
    .action(action(async (flags, out) => (await contacts()).contactsList(flags, out)));
  const set = people
    .command("set <handle>")
    .description("set part of a contact's profile")
    .option("--imessage", "registered with iMessage")
    .option("--no-imessage", "not on iMessage (sends go by SMS)")
    .addOption(
      new Option("--platform <platform>", "ios or android (android turns iMessage off unless --imessage)").choices([
        "ios",
        "android",
      ]),
    )
    .option("--whatsapp", "on WhatsApp")
    .option("--no-whatsapp", "not on WhatsApp")
    .addOption(new Option("--reachable", "the phone acknowledges delivery").conflicts("unreachable"))
    .option("--unreachable", "messages stay sent, never delivered")
    .option("--read-receipts", "sends read receipts")
    .option("--no-read-receipts", "messages stop at delivered")
    .action(action(async (flags, out, handle: string) => (await contacts()).contactsSet(handle, flags, out)));
  refuseFlagWithItsNegation(set, ["--imessage", "--whatsapp", "--read-receipts"]);

  const sim = program
    .command("simulate")
    .description("play the contacts' side and the network: inbound messages, receipts, faults");
  sim
    .command("inbound")
    .description(
      "a contact sends a message (text and/or files), one-to-one or into a group; prints the inbound message",
    )
    .requiredOption("--from <handle>", "the contact")
    .option("--to <number>", "one of the account's numbers (optional with --group)")
    .option("--text <text>", "message text")
    .option("--attach <files...>", "files the contact sends (uploaded first; up to 10)")
    .option("--voice-memo", "the audio attachments are voice notes")
    .option("--duration <seconds>", "WhatsApp audio/video: the length to report (default: read from the file)", seconds)
    .addOption(
      new Option(
        "--channel <channel>",
        "default: iMessage if both sides have it, else SMS (WhatsApp on WhatsApp-only numbers)",
      ).choices(["imessage", "sms", "whatsapp"]),
    )
    .option("--members <handles>", "a new group: every other participant, H,H… (your numbers among them get it too)")
    .option("--group <id>", "an existing group: one of its conversations' id")
    .action(action(async (flags, out) => (await simulate()).simulateInbound(flags as never, out)));
  for (const what of ["delivered", "read"] as const) {
    sim
      .command(`${what} <id>`)
      .description(`move an outbound message forward to ${what}, firing every event in between`)
      .action(action(async (flags, out, id: string) => (await simulate()).simulateProgress(what, id, flags, out)));
  }
  sim
    .command("fail <id>")
    .description("fail a queued or sent outbound message")
    .option("--error <text>", "the reason stored in `error`")
    .action(action(async (flags, out, id: string) => (await simulate()).simulateProgress("fail", id, flags, out)));
  sim
    .command("reaction <id>")
    .description("a contact reacts to one of your delivered messages")
    .requiredOption("--from <handle>", "the contact")
    .requiredOption("--reaction <reaction>", "love, like, dislike, laugh, emphasize, question, or one emoji")
    .option("--remove", "the contact removes the reaction")
    .action(action(async (flags, out, id: string) => (await simulate()).simulateReaction(id, flags as never, out)));
  sim
    .command("typing")
    .description("a contact starts (or stops) typing in their thread with one of your numbers, or in a group")
    .requiredOption("--from <handle>", "the contact")
    .option("--to <number>", "one of the account's numbers (their one-to-one thread)")
    .option("--group <id>", "a group's conversation id, instead of --to")
    .option("--stop", "the contact stops typing")
    .action(action(async (flags, out) => (await simulate()).simulateTyping(flags as never, out)));
  addGroupSimulateCommands(sim, action);
  sim
    .command("edit <id>")
    .description("a contact edits their message")
    .requiredOption("--text <text>", "the new text")
    .action(action(async (flags, out, id: string) => (await simulate()).simulateEdit(id, flags as never, out)));
  sim
    .command("fault <number> [fault]")
    .description(
      "switch a fault of one of your numbers: offline, online, transient, rate-limited, relink-required (none: show them)",
    )
    .option("--count <k>", "transient: how many attempts fail (0 clears)", wholeNumber)
    .option("--off", "switch the fault off")
    .action(
      action(async (flags, out, number: string, fault?: string) =>
        fault === undefined
          ? (await simulate()).showFaults(number, flags, out)
          : (await simulate()).simulateFault(number, fault, flags, out),
      ),
    );
}

/** `msgctl wait message ID --status S [--timeout 10s]`, added to the `wait` group. */
export function addMessageWaitCommand(wait: Command, action: typeof Action): void {
  wait
    .command("message <id>")
    .description("wait until a message is at a status or past it (read satisfies delivered)")
    .addOption(new Option("--status <status>", "the status to reach").choices(MESSAGE_STATUSES).makeOptionMandatory())
    .option("--timeout <duration>", "real time to wait", "10s")
    .action(
      action(async (flags, out, id: string) => {
        const { waitMessage } = await import("./commands/message-wait.js");
        await waitMessage(id, flags as never, out);
      }),
    );
}
