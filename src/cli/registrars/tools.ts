import { Argument, Option, type Command } from "@commander-js/extra-typings";
import { action } from "../action.js";
import { EVENT_NAMES, HOSTS } from "../choices.js";
import { completes } from "../completion-hints.js";
import { DEFAULT_OPENAPI_HOST } from "../defaults.js";
import { wholeNumber } from "../flag-parsers.js";

/** `msgctl openapi`, `trigger` and `run`: what the API looks like, its events on demand, scenario files. */
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

  program
    .command("run [files...]")
    .description(
      "run scenario files (YAML or JSON): steps against the sandbox and your app, with expectations; exit 1 if one is unmet",
    )
    .option("--junit <path>", "also write a JUnit XML report (one test case per file)")
    .option("--bail", "stop at the first unmet expectation or failed step")
    .option("--serve", "start a sandbox on a manual clock for the run (default ports 4010/4011) and stop it after")
    .option("--port <port>", "with --serve: the messaging host's port (0 = a free port)", wholeNumber)
    .option("--otp-port <port>", "with --serve: the OTP host's port (0 = a free port)", wholeNumber)
    .option("--schema", "print the scenario file format as JSON Schema and run nothing")
    .action(action(() => import("../commands/run.js"), "run"));
}
