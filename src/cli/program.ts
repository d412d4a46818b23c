import { Command, Option } from "commander";
import { addAttachmentCommands } from "./attachments-commands.js";
import { addChatCommands } from "./chats-commands.js";
import type { ConnectionFlags } from "./connection.js";
import { wholeNumber } from "./flag-parsers.js";
import { addMessageCommands, addMessageWaitCommand } from "./messages-commands.js";
import { addOtpCommands, addOtpFaultCommand, addOtpWaitCommand } from "./otp-commands.js";
import { processOutput, type Output } from "./output.js";
import { addWebhookCommands } from "./webhooks-commands.js";

/** Global flags, as commander hands them over. */
export type GlobalFlags = ConnectionFlags & { json?: boolean };

/**
 * Wraps a command: gathers global and local flags, makes the output, and calls `fn`. The
 * command modules are imported lazily so `msgctl --help` and `serve` start fast.
 */
export function action<A extends unknown[]>(
  fn: (flags: GlobalFlags & Record<string, any>, out: Output, ...args: A) => Promise<unknown>,
) {
  return async (...received: unknown[]) => {
    const command = received.at(-1) as Command;
    const flags = command.optsWithGlobals() as GlobalFlags & Record<string, any>;
    const positional = received.slice(0, -2) as A;
    await fn(flags, processOutput(flags.json === true), ...positional);
  };
}

/** Appends values of a repeatable option. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The msgctl program: global flags and every command (SANDBOX.md section 6). */
export function createProgram(version: string): Command {
  const program = new Command("msgctl")
    .description("A local sandbox of the messaging service: both hosts, a controllable clock, signed webhooks.")
    .exitOverride()
    .version(version, "-v, --version")
    .showHelpAfterError("(run with --help for usage)")
    // `serve --help` and the rest list --json, --state-dir and the connection flags they take too.
    .configureHelp({ showGlobalOptions: true })
    .addOption(new Option("--base-url <url>", "messaging host of the sandbox").env("MSGCTL_BASE_URL"))
    .addOption(new Option("--otp-url <url>", "OTP host of the sandbox").env("MSGCTL_OTP_URL"))
    .addOption(new Option("--api-key <key>", "messaging API key (sk_test_…)").env("MSGCTL_API_KEY"))
    .addOption(new Option("--otp-api-key <key>", "OTP API key (otp_live_…)").env("MSGCTL_OTP_API_KEY"))
    .option("--account <name>", "account of the running sandbox to act as (default: the first)")
    .addOption(
      new Option("--state-dir <dir>", "where `serve` writes sandbox.json and other commands find it")
        .env("MSGCTL_STATE_DIR")
        .default(".msgctl"),
    )
    .option("--json", "print results as JSON for scripts")
    .addHelpText(
      "after",
      "\nExit status: 0 success; 1 the API refused, no sandbox was found or reached, or a wait timed out;\n" +
        "2 a usage error; 130 / 143 a wait ended by SIGINT / SIGTERM; 130 Ctrl-C in a prompt.",
    );

  // --- Sandbox ---
  program
    .command("serve")
    .description("run the messaging host, the OTP host and the control API in one process")
    .option("--port <port>", "messaging host port (0 = a free port)", wholeNumber, 4010)
    .option("--otp-port <port>", "OTP host port (0 = a free port)", wholeNumber, 4011)
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option(
      "--allowed-hosts <hosts>",
      "names besides localhost and --host that requests may reach it by (comma-separated; .example.test allows every name under it); any other Host header is refused, so web pages cannot drive the sandbox",
    )
    .option("--db <path>", "SQLite database file, or :memory:", ".msgctl/sandbox.db")
    .option("--fixture <path>", "fixture that seeds an empty database (default: the shipped one)")
    .option("--clock <mode>", "real: time follows the wall clock; manual: time moves only with `clock advance`", "real")
    .option("--strict-urls", "webhook URLs follow spec 4.4 to the letter (loopback rejected too)")
    .option("--no-state-file", "do not write <state-dir>/sandbox.json")
    .option("--quiet", "print only the ready line or banner, no logs")
    .option("--log-file <path>", "write log records to this file (folders made) instead of stdout")
    .option("--log-level <level>", "error, info or debug (each webhook attempt)", "info")
    .action(
      action(async (flags, out) => {
        const { serve } = await import("./commands/serve.js");
        await serve(
          { ...flags, stateDir: flags.stateDir ?? ".msgctl", stateFile: flags.stateFile !== false } as never,
          out,
        );
      }),
    );

  program
    .command("init")
    .description("write a fixture file (accounts, numbers, contacts) by answering questions")
    .option("-o, --output <path>", "file to write", "msgctl.fixture.json")
    .option("-y, --yes", "write a starter fixture without asking")
    .option("--force", "overwrite an existing file")
    .action(
      action(async (flags, out) => {
        const { init } = await import("./commands/init.js");
        await init(flags as { output?: string; yes?: boolean; force?: boolean }, out);
      }),
    );

  program
    .command("reset")
    .description("wipe all state and re-seed the running sandbox")
    .option("--fixture <path>", "seed from this fixture instead of the one the sandbox started with")
    .action(
      action(async (flags, out) => {
        const { reset } = await import("./commands/reset.js");
        await reset(flags, out);
      }),
    );

  program
    .command("env")
    .description("print the MSGCTL_* variables of the running sandbox as shell exports")
    .option("--shell <shell>", "bash, fish or powershell", "bash")
    .action(
      action(async (flags, out) => {
        const { env } = await import("./commands/env.js");
        env(flags, out);
      }),
    );

  const clock = program
    .command("clock")
    .description("show the sandbox clock; `clock advance DURATION` moves a manual clock")
    .action(
      action(async (flags, out) => {
        const { clockShow } = await import("./commands/clock.js");
        await clockShow(flags, out);
      }),
    );
  clock
    .command("advance <duration>")
    .description("run everything due up to now + DURATION (500ms, 90s, 10m, 24h, 1h30m)")
    .action(
      action(async (flags, out, duration: string) => {
        const { clockAdvance } = await import("./commands/clock.js");
        await clockAdvance(duration, flags, out);
      }),
    );

  // --- Messaging API ---
  program
    .command("numbers")
    .description("list the account's numbers (GET /v1/numbers)")
    .action(
      action(async (flags, out) => {
        const { numbersList } = await import("./commands/numbers.js");
        await numbersList(flags, out);
      }),
    );

  const accounts = program
    .command("accounts")
    .description("accounts on demand, for parallel test workers sharing one sandbox");
  accounts
    .command("create")
    .description("make a fresh account with its own keys and pool numbers (keys shown once)")
    .option("--name <name>", "account name (default: account-<n>)")
    .option("--numbers <count>", "how many pool numbers (1-20)", wholeNumber, 1)
    .action(
      action(async (flags, out) => {
        const { accountsCreate } = await import("./commands/accounts.js");
        await accountsCreate(flags, out);
      }),
    );
  accounts
    .command("list")
    .description("every account with its numbers")
    .action(
      action(async (flags, out) => {
        const { accountsList } = await import("./commands/accounts.js");
        await accountsList(flags, out);
      }),
    );
  accounts
    .command("delete <name>")
    .description("delete an account and all its data")
    .action(
      action(async (flags, out, name: string) => {
        const { accountsDelete } = await import("./commands/accounts.js");
        await accountsDelete(name, flags, out);
      }),
    );

  program
    .command("openapi")
    .description("print a host's OpenAPI 3.1 document (the one it serves at /openapi.json)")
    .option("--host <host>", "messaging or otp", "messaging")
    .action(
      action(async (flags, out) => {
        const { openapi } = await import("./commands/openapi.js");
        await openapi(flags, out);
      }),
    );

  program
    .command("trigger [event]")
    .description("run the real actions that cause EVENT and print what they created (--list names them)")
    .option("--list", "name every event trigger can cause")
    .action(
      action(async (flags, out, event?: string) => {
        const { trigger, triggerListCommand } = await import("./commands/trigger.js");
        if (flags.list) triggerListCommand(out);
        else await trigger(event, flags, out);
      }),
    );

  addMessageCommands(program, action);
  addChatCommands(program, action);
  addAttachmentCommands(program, action);
  addWebhookCommands(program, action);
  addOtpCommands(program, action);
  addOtpFaultCommand(program.commands.find((command) => command.name() === "simulate") as Command, action);

  // --- Waiting ---
  const wait = program.command("wait").description("block until something is true (exit 1 at the timeout)");
  wait
    .command("event <type>")
    .description("wait for an event of TYPE, optionally with payload fields equal to values")
    .option("--match <key=value>", "payload field that must equal value (repeatable; dotted paths)", collect)
    .option("--timeout <duration>", "real time to wait", "10s")
    .action(
      action(async (flags, out, type: string) => {
        const { waitEvent } = await import("./commands/wait.js");
        await waitEvent(type, flags, out);
      }),
    );

  addMessageWaitCommand(wait, action);
  addOtpWaitCommand(wait, action);

  return program;
}
