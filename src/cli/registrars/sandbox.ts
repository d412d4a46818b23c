import { Option, type Command } from "@commander-js/extra-typings";
import { action } from "../action.js";
import { CLOCK_MODES, SHELLS } from "../choices.js";
import {
  DEFAULT_CLOCK,
  DEFAULT_DB,
  DEFAULT_FIXTURE_FILE,
  DEFAULT_HOST,
  DEFAULT_LOG_LEVEL,
  DEFAULT_PORTS,
  DEFAULT_SETTLE_TIMEOUT,
  DEFAULT_SHELL,
} from "../defaults.js";
import { durationWithUnit, wholeNumber } from "../flag-parsers.js";

/** `msgctl serve`, `init`, `reset`, `settle` and `env`: the sandbox itself. */
export function registerSandboxCommands(program: Command): void {
  program
    .command("serve")
    .description("run the messaging host, the OTP host and the control API in one process")
    .option("--port <port>", "messaging host port (0 = a free port)", wholeNumber, DEFAULT_PORTS.messaging)
    .option("--otp-port <port>", "OTP host port (0 = a free port)", wholeNumber, DEFAULT_PORTS.otp)
    .option("--host <host>", "interface to listen on", DEFAULT_HOST)
    .option(
      "--allowed-hosts <hosts>",
      "names besides localhost and --host that requests may reach it by (comma-separated; .example.test allows every name under it); any other Host header is refused, so web pages cannot drive the sandbox",
    )
    .option("--db <path>", "SQLite database file, or :memory:", DEFAULT_DB)
    .option("--fixture <path>", "fixture that seeds an empty database (default: the shipped one)")
    .option(
      "--restore <file>",
      "start from an exported snapshot (`msgctl snapshot export`) instead of the database's state or a fixture",
    )
    .addOption(
      new Option("--clock <mode>", "real: time follows the wall clock; manual: time moves only with `clock advance`")
        .choices(CLOCK_MODES)
        .default(DEFAULT_CLOCK),
    )
    .option(
      "--strict-urls",
      "webhook URLs follow spec 4.4 to the letter (loopback rejected too); kept in the database's settings (`msgctl settings set strict_urls false` undoes it)",
    )
    .option(
      "--chaos <seed[:profile]>",
      "seeded chaos from the start: duplicated, reordered and delayed deliveries, failed sends, lost receipts (profile mild, the default, or rough)",
    )
    .option("--no-state-file", "do not write <state-dir>/sandbox.json")
    .option("--quiet", "print only the ready line or banner, no logs")
    .option("--log-file <path>", "write log records to this file (folders made) instead of stdout")
    // Not `.choices()`: serve's own check words the refusal (and its JSON error) as scripts expect.
    .option("--log-level <level>", "error, info or debug (each webhook attempt)", DEFAULT_LOG_LEVEL)
    .action(action(() => import("../commands/serve.js"), "serve"));

  program
    .command("init")
    .description("write a fixture file (accounts, numbers, contacts) by answering questions")
    .option("-o, --output <path>", "file to write", DEFAULT_FIXTURE_FILE)
    .option("-y, --yes", "write a starter fixture without asking")
    .option("--force", "overwrite an existing file")
    .action(action(() => import("../commands/init.js"), "init"));

  program
    .command("reset")
    .description("wipe all state and re-seed the running sandbox")
    .option("--fixture <path>", "seed from this fixture instead of the one the sandbox started with")
    .action(action(() => import("../commands/reset.js"), "reset"));

  program
    .command("settle")
    .description(
      "wait until every job due now has run and every webhook delivery due has finished its first attempt (never moves the clock)",
    )
    .option(
      "--timeout <duration>",
      "real time to wait at most (with its unit, up to 5m)",
      durationWithUnit,
      DEFAULT_SETTLE_TIMEOUT,
    )
    .action(action(() => import("../commands/settle.js"), "settle"));

  program
    .command("env")
    .description("print the MSGCTL_* variables of the running sandbox as shell exports")
    .addOption(new Option("--shell <shell>", "the syntax of the exports").choices(SHELLS).default(DEFAULT_SHELL))
    .action(action(() => import("../commands/env.js"), "env"));
}
