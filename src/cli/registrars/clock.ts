import { Argument, type Command } from "@commander-js/extra-typings";
import { action } from "../action.js";
import { durationWithUnit } from "../flag-parsers.js";

/** `msgctl clock` and `clock advance DURATION`. */
export function registerClockCommands(program: Command): void {
  const commands = () => import("../commands/clock.js");
  const clock = program
    .command("clock")
    .description("show the sandbox clock; `clock advance DURATION` moves a manual clock")
    .action(action(commands, "clockShow"));
  clock
    .command("advance")
    .addArgument(
      new Argument("<duration>", "with its unit: 500ms, 90s, 10m, 24h, 1h30m, 2d").argParser(durationWithUnit),
    )
    .description("run everything due up to now + DURATION (a number needs its unit: 90s, not 90)")
    .action(action(commands, "clockAdvance"));
}
