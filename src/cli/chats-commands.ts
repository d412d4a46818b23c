import type { Command } from "commander";
import { wholeNumber } from "./flag-parsers.js";
import type { action as Action } from "./program.js";

/**
 * `msgctl chats list|get|create|rename|add|remove|read|typing` (SANDBOX.md section 6): maps flags
 * to options and lazily imports the command functions, like program.ts.
 */
export function addChatCommands(program: Command, action: typeof Action): void {
  const commands = () => import("./commands/chats.js");
  const chats = program.command("chats").description("conversations: one-to-one threads and groups (spec 4.5)");
  chats
    .command("list")
    .description("threads, newest activity first (GET /v1/chats)")
    .option("--limit <n>", "page size, 1-100", wholeNumber)
    .option("--before <timestamp>", "cursor: the last_message_at of the oldest thread seen")
    .action(action(async (flags, out) => (await commands()).chatsList(flags, out)));
  chats
    .command("get <id>")
    .description("one thread (GET /v1/chats/:id)")
    .action(action(async (flags, out, id: string) => (await commands()).chatsGet(id, flags, out)));
  chats
    .command("create")
    .description("start an iMessage group with an opening message (POST /v1/chats)")
    .requiredOption("--from <number>", "one of your numbers that serves iMessage")
    .requiredOption("--to <handles>", "the other members, 2 to 31: H,H…")
    .requiredOption("--message <text>", "the opening message (delivered, not recorded)")
    .option("--title <title>", "the group's name, at most 100 characters (best effort)")
    .option("--idempotency-key <key>", "repeat-safe create: the same key returns the same group")
    .action(action(async (flags, out) => (await commands()).chatsCreate(flags as never, out)));
  chats
    .command("rename <id>")
    .description("rename an iMessage group (PATCH /v1/chats/:id)")
    .requiredOption("--title <title>", "the new name, at most 100 characters")
    .action(action(async (flags, out, id: string) => (await commands()).chatsRename(id, flags as never, out)));
  for (const what of ["add", "remove"] as const) {
    chats
      .command(`${what} <id> <handle>`)
      .description(`${what} a member ${what === "add" ? "to" : "from"} an iMessage group`)
      .action(
        action(async (flags, out, id: string, handle: string) =>
          (await commands()).chatsMember(what, id, handle, flags, out),
        ),
      );
  }
  chats
    .command("read <id>")
    .description("mark the thread read: its contacts see read receipts (iMessage and WhatsApp)")
    .action(action(async (flags, out, id: string) => (await commands()).chatsRead(id, flags, out)));
  chats
    .command("typing <id>")
    .description("show your typing bubble on the contacts' phones (it hides by itself after 60 s)")
    .option("--stop", "hide it now")
    .action(action(async (flags, out, id: string) => (await commands()).chatsTyping(id, flags, out)));
}

/** `msgctl simulate rename ID --title T` and `simulate add|remove ID HANDLE --from H`, added to the `simulate` group. */
export function addGroupSimulateCommands(simulate: Command, action: typeof Action): void {
  const commands = () => import("./commands/simulate-groups.js");
  simulate
    .command("rename <id>")
    .description("a member renames a group (iMessage or WhatsApp)")
    .requiredOption("--title <title>", "the new name")
    .option("--from <handle>", "the member who renames it (default: the first contact in the group)")
    .action(action(async (flags, out, id: string) => (await commands()).simulateRename(id, flags as never, out)));
  for (const what of ["add", "remove"] as const) {
    simulate
      .command(`${what} <id> <handle>`)
      .description(
        `a member ${what === "add" ? "adds someone to" : "removes someone from"} a group (iMessage or WhatsApp)`,
      )
      .requiredOption("--from <handle>", "the member who does it")
      .action(
        action(async (flags, out, id: string, handle: string) =>
          (await commands()).simulateMember(what, id, handle, flags as never, out),
        ),
      );
  }
}
