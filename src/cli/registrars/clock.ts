import type { Command } from "@commander-js/extra-typings";
import { action } from "../action.js";

/** `msgctl clock` and `clock advance DURATION`. */
export function registerClockCommands(program: Command): void {
  const commands = () => import("../commands/clock.js");
  const clock = program
    .command("clock")
    .description("show the sandbox clock; `clock advance DURATION` moves a manual clock")
    .action(action(commands, "clockShow"));
  clock
    .command("advance <duration>")
    .description("run everything due up to now + DURATION (500ms, 90s, 10m, 24h, 1h30m)")
    .action(action(commands, "clockAdvance"));
}
