import { Option, type Command } from "@commander-js/extra-typings";
import { action } from "../action.js";
import { MEDIA_QUALITIES } from "../choices.js";
import { DEFAULT_PAGE_SIZE, DEFAULT_WAIT_TIMEOUT } from "../defaults.js";
import { durationWithUnit, wholeNumber } from "../flag-parsers.js";

/** `msgctl send`, `messages list|get|react|edit|unsend|retry` and `availability`: your messages. */
export function registerMessageCommands(program: Command): void {
  const commands = () => import("../commands/messages.js");

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
      new Option("--media-quality <quality>", "fit: transcode to the cap; original: never").choices(MEDIA_QUALITIES),
    )
    .option("--idempotency-key <key>", "repeat-safe send: the same key returns the same message")
    .addOption(
      new Option("--wait <status>", "block until the message is at this status or past it").choices([
        "sent",
        "delivered",
        "read",
      ]),
    )
    .option(
      "--timeout <duration>",
      "real time to wait with --wait (with its unit: 30s)",
      durationWithUnit,
      DEFAULT_WAIT_TIMEOUT,
    )
    .action(action(commands, "send"));

  const messages = program.command("messages").description("list, read and act on messages");
  messages
    .command("list")
    .description("messages, newest first (GET /v1/messages)")
    .option("--conversation <id>", "only this thread's")
    .option("--limit <n>", "page size (1-100)", wholeNumber, DEFAULT_PAGE_SIZE)
    .option("--before <time>", "only messages created before this ISO time (the next page)")
    .option("--all", "every page (without it --json prints one page, and a note on stderr says when more exist)")
    .action(action(commands, "messagesList"));
  messages.command("get <id>").description("one message").action(action(commands, "messagesGet"));
  messages
    .command("react <id>")
    .description("react to a delivered message (iMessage or WhatsApp)")
    .requiredOption("--reaction <reaction>", "love, like, dislike, laugh, emphasize, question, or one emoji")
    .option("--remove", "remove the reaction")
    .action(action(commands, "messagesAction", "react"));
  messages
    .command("edit <id>")
    .description("edit a sent iMessage (lands asynchronously)")
    .requiredOption("--text <text>", "the new text")
    .action(action(commands, "messagesAction", "edit"));
  messages
    .command("unsend <id>")
    .description("unsend a sent iMessage (lands asynchronously)")
    .action(action(commands, "messagesAction", "unsend"));
  messages
    .command("retry <id>")
    .description("queue a failed message again")
    .action(action(commands, "messagesAction", "retry"));

  program
    .command("availability <handle>")
    .description("is HANDLE on iMessage, and which channel a send would use")
    .action(action(commands, "availability"));
}
