import { Argument, Option, type Command } from "@commander-js/extra-typings";
import { action } from "../action.js";
import { CHANNELS, FAULT_NAMES, OTP_FAULTS } from "../choices.js";
import { positiveSeconds, wholeNumber } from "../flag-parsers.js";

/**
 * `msgctl simulate …`: the contacts' side and the network. Inbound messages, receipts, reactions,
 * typing, edits, group changes by members, a number's faults and the OTP host's outage.
 */
export function registerSimulateCommands(program: Command): void {
  const commands = () => import("../commands/simulate.js");
  const groups = () => import("../commands/simulate-groups.js");
  const simulate = program
    .command("simulate")
    .description("play the contacts' side and the network: inbound messages, receipts, faults");

  simulate
    .command("inbound")
    .description(
      "a contact sends a message (text and/or files), one-to-one or into a group; prints the inbound message",
    )
    .requiredOption("--from <handle>", "the contact")
    .option("--to <number>", "one of the account's numbers (optional with --group)")
    .option("--text <text>", "message text")
    .option("--attach <files...>", "files the contact sends (uploaded first; up to 10)")
    .option("--voice-memo", "the audio attachments are voice notes")
    .option(
      "--duration <seconds>",
      "WhatsApp audio/video: the length to report (default: read from the file)",
      positiveSeconds,
    )
    .addOption(
      new Option(
        "--channel <channel>",
        "default: iMessage if both sides have it, else SMS (WhatsApp on WhatsApp-only numbers)",
      ).choices(CHANNELS),
    )
    .option("--members <handles>", "a new group: every other participant, H,H… (your numbers among them get it too)")
    .option("--group <id>", "an existing group: one of its conversations' id")
    .action(action(commands, "simulateInbound"));
  for (const what of ["delivered", "read"] as const) {
    simulate
      .command(`${what} <id>`)
      .description(`move an outbound message forward to ${what}, firing every event in between`)
      .action(action(commands, "simulateProgress", what));
  }
  simulate
    .command("fail <id>")
    .description("fail a queued or sent outbound message")
    .option("--error <text>", "the reason stored in `error`")
    .action(action(commands, "simulateProgress", "fail"));
  simulate
    .command("reaction <id>")
    .description("a contact reacts to one of your delivered messages")
    .requiredOption("--from <handle>", "the contact")
    .requiredOption("--reaction <reaction>", "love, like, dislike, laugh, emphasize, question, or one emoji")
    .option("--remove", "the contact removes the reaction")
    .action(action(commands, "simulateReaction"));
  simulate
    .command("typing")
    .description("a contact starts (or stops) typing in their thread with one of your numbers, or in a group")
    .requiredOption("--from <handle>", "the contact")
    .option("--to <number>", "one of the account's numbers (their one-to-one thread)")
    .option("--group <id>", "a group's conversation id, instead of --to")
    .option("--stop", "the contact stops typing")
    .action(action(commands, "simulateTyping"));
  simulate
    .command("rename <id>")
    .description("a member renames a group (iMessage or WhatsApp)")
    .requiredOption("--title <title>", "the new name")
    .option("--from <handle>", "the member who renames it (default: the first contact in the group)")
    .action(action(groups, "simulateRename"));
  for (const what of ["add", "remove"] as const) {
    simulate
      .command(`${what} <id> <handle>`)
      .description(
        `a member ${what === "add" ? "adds someone to" : "removes someone from"} a group (iMessage or WhatsApp)`,
      )
      .requiredOption("--from <handle>", "the member who does it")
      .action(action(groups, "simulateMember", what));
  }
  simulate
    .command("edit <id>")
    .description("a contact edits their message")
    .requiredOption("--text <text>", "the new text")
    .action(action(commands, "simulateEdit"));
  simulate
    .command("fault <number>")
    .addArgument(new Argument("[fault]").choices(FAULT_NAMES))
    .description(
      "switch a fault of one of your numbers: offline, online, transient, rate-limited, relink-required (none: show them)",
    )
    .option("--count <k>", "transient: how many attempts fail (0 clears)", wholeNumber)
    .option("--off", "switch the fault off")
    .action(action(commands, "simulateFault"));
  simulate
    .command("otp-fault")
    .addArgument(new Argument("<fault>").choices(OTP_FAULTS))
    .description("unavailable: the OTP host's /v1 answers 503 unavailable until --off (/healthz stays up)")
    .option("--off", "end the outage")
    .action(action(() => import("../commands/otp.js"), "otpFault"));
}
