import { Option, type Command } from "@commander-js/extra-typings";
import { action } from "../action.js";
import { CHAOS_PROFILE_NAMES } from "../choices.js";
import { DEFAULT_CHAOS_PROFILE, DEFAULT_PAGE_SIZE } from "../defaults.js";
import { wholeNumber } from "../flag-parsers.js";

/** `msgctl chaos on|off|status|log`: seeded chaos. */
export function registerChaosCommands(program: Command): void {
  const commands = () => import("../commands/chaos.js");
  const chaos = program
    .command("chaos")
    .description("seeded chaos: duplicate, reorder and delay deliveries, fail sends, lose receipts, replayably");

  chaos
    .command("on <seed>")
    .description(
      "switch chaos on: each decision is drawn from SEED (text or a whole number) and the work it concerns, so the same seed over the same calls replays",
    )
    .addOption(
      new Option("--profile <profile>", "how often each kind of chaos happens (see `chaos status`)")
        .choices(CHAOS_PROFILE_NAMES)
        .default(DEFAULT_CHAOS_PROFILE),
    )
    .action(action(commands, "chaosOn"));

  chaos
    .command("off")
    .description("switch chaos off; first attempts it held back go at once, in order")
    .action(action(commands, "chaosOff"));

  chaos
    .command("status")
    .description("whether chaos is on, with its seed, profile and rates")
    .action(action(commands, "chaosStatus"));

  chaos
    .command("log")
    .description("the account's chaos decisions, oldest first: what, to which event, endpoint or message, by how much")
    .option("--after <id>", "only decisions after this id (the `More:` hint's value)", wholeNumber)
    .option("--limit <n>", "how many (1-100)", wholeNumber, DEFAULT_PAGE_SIZE)
    .option("--all", "every page (without it --json prints one page, and a note on stderr says when more exist)")
    .action(action(commands, "chaosLog"));
}
