import { Option, type Command } from "@commander-js/extra-typings";
import { action } from "../action.js";
import { HOSTS } from "../choices.js";
import { DEFAULT_OPENAPI_HOST } from "../defaults.js";

/** `msgctl openapi` and `trigger`: what the API looks like, and its events on demand. */
export function registerToolCommands(program: Command): void {
  program
    .command("openapi")
    .description("print a host's OpenAPI 3.1 document (the one it serves at /openapi.json)")
    .addOption(new Option("--host <host>", "whose document").choices(HOSTS).default(DEFAULT_OPENAPI_HOST))
    .action(action(() => import("../commands/openapi.js"), "openapi"));

  program
    .command("trigger [event]")
    .description("run the real actions that cause EVENT and print what they created (--list names them)")
    .option("--list", "name every event trigger can cause")
    .action(action(() => import("../commands/trigger.js"), "trigger"));
}
