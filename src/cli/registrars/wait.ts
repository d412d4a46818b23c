import { Argument, Option, type Command } from "@commander-js/extra-typings";
import { action } from "../action.js";
import { CHALLENGE_STATUSES, EVENT_NAMES, MESSAGE_STATUSES } from "../choices.js";
import { completes } from "../completion-hints.js";
import { DEFAULT_WAIT_TIMEOUT } from "../defaults.js";
import { collect, durationWithUnit } from "../flag-parsers.js";

/** `msgctl wait event|message|otp`: block until something is true. */
export function registerWaitCommands(program: Command): void {
  const wait = program.command("wait").description("block until something is true (exit 1 at the timeout)");
  wait
    .command("event")
    .addArgument(completes(new Argument("<type>"), { values: EVENT_NAMES }))
    .description("wait for an event of TYPE, optionally with payload fields equal to values")
    .option("--match <key=value>", "payload field that must equal value (repeatable; dotted paths)", collect)
    .option("--delivered", "until its first attempt to every subscribed endpoint has finished, not only until emitted")
    .option(
      "--timeout <duration>",
      "real time to wait (with its unit: 30s, 2m)",
      durationWithUnit,
      DEFAULT_WAIT_TIMEOUT,
    )
    .action(action(() => import("../commands/wait.js"), "waitEvent"));
  wait
    .command("message <id>")
    .description("wait until a message is at a status or past it (read satisfies delivered)")
    .addOption(new Option("--status <status>", "the status to reach").choices(MESSAGE_STATUSES).makeOptionMandatory())
    .option(
      "--timeout <duration>",
      "real time to wait (with its unit: 30s, 2m)",
      durationWithUnit,
      DEFAULT_WAIT_TIMEOUT,
    )
    .action(action(() => import("../commands/message-wait.js"), "waitMessage"));
  wait
    .command("otp <id>")
    .description("wait until a challenge is at a status or past it (consumed satisfies verified)")
    .addOption(new Option("--status <status>", "the status to reach").choices(CHALLENGE_STATUSES).makeOptionMandatory())
    .option(
      "--timeout <duration>",
      "real time to wait (with its unit: 30s, 2m)",
      durationWithUnit,
      DEFAULT_WAIT_TIMEOUT,
    )
    .action(action(() => import("../commands/otp-wait.js"), "waitOtp"));
}
