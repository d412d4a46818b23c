import type { Command } from "@commander-js/extra-typings";
import { action } from "../action.js";
import { wholeNumber } from "../flag-parsers.js";

/** `msgctl chats list|get|create|rename|add|remove|read|typing`: threads and groups. */
export function registerChatCommands(program: Command): void {
  const commands = () => import("../commands/chats.js");
  const chats = program.command("chats").description("conversations: one-to-one threads and groups (spec 4.5)");
  chats
    .command("list")
    .description("threads, newest activity first (GET /v1/chats)")
    .option(
      "--limit <n>",
      "page size, 1-100 (--json prints one page; a note on stderr says when more exist)",
      wholeNumber,
    )
    .option("--before <timestamp>", "cursor: the last_message_at of the oldest thread seen")
    .action(action(commands, "chatsList"));
  chats.command("get <id>").description("one thread (GET /v1/chats/:id)").action(action(commands, "chatsGet"));
  chats
    .command("create")
    .description("start an iMessage group with an opening message (POST /v1/chats)")
    .requiredOption("--from <number>", "one of your numbers that serves iMessage")
    .requiredOption("--to <handles>", "the other members, 2 to 31: H,H…")
    .requiredOption("--message <text>", "the opening message (delivered, not recorded)")
    .option("--title <title>", "the group's name, at most 100 characters (best effort)")
    .option("--idempotency-key <key>", "repeat-safe create: the same key returns the same group")
    .action(action(commands, "chatsCreate"));
  chats
    .command("rename <id>")
    .description("rename an iMessage group (PATCH /v1/chats/:id)")
    .requiredOption("--title <title>", "the new name, at most 100 characters")
    .action(action(commands, "chatsRename"));
  for (const what of ["add", "remove"] as const) {
    chats
      .command(`${what} <id> <handle>`)
      .description(`${what} a member ${what === "add" ? "to" : "from"} an iMessage group`)
      .action(action(commands, "chatsMember", what));
  }
  chats
    .command("read <id>")
    .description("mark the thread read: its contacts see read receipts (iMessage and WhatsApp)")
    .action(action(commands, "chatsRead"));
  chats
    .command("typing <id>")
    .description("show your typing bubble on the contacts' phones (it hides by itself after 60 s)")
    .option("--stop", "hide it now")
    .action(action(commands, "chatsTyping"));
}
