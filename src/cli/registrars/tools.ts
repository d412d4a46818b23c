import { Argument, Option, type Command } from "@commander-js/extra-typings";
import { action } from "../action.js";
import { EVENT_NAMES, HOSTS } from "../choices.js";
import { completes } from "../completion-hints.js";
import { DEFAULT_OPENAPI_HOST } from "../defaults.js";

/** `msgctl openapi` and `trigger`: what the API looks like, and its events on demand. */
export function registerToolCommands(program: Command): void {
  program
    .command("openapi")
    .description("print a host's OpenAPI 3.1 document (the one it serves at /openapi.json)")
    .addOption(new Option("--host <host>", "whose document").choices(HOSTS).default(DEFAULT_OPENAPI_HOST))
    .action(action(() => import("../commands/openapi.js"), "openapi"));

  program
    .command("trigger")
    // Not `.choices()`: trigger's own check names the events it can cause.
    .addArgument(completes(new Argument("[event]"), { values: EVENT_NAMES }))
    .description("run the real actions that cause EVENT and print what they created (--list names them)")
    .option("--list", "name every event trigger can cause")
    .action(action(() => import("../commands/trigger.js"), "trigger"));
}
