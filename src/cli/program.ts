import { Command, Option } from "@commander-js/extra-typings";
import { DEFAULT_STATE_DIR } from "./defaults.js";
import { registerAccountCommands } from "./registrars/accounts.js";
import { registerAttachmentCommands } from "./registrars/attachments.js";
import { registerChaosCommands } from "./registrars/chaos.js";
import { registerChatCommands } from "./registrars/chats.js";
import { registerClockCommands } from "./registrars/clock.js";
import { registerCompletionCommands } from "./registrars/completion.js";
import { registerContactCommands } from "./registrars/contacts.js";
import { registerMessageCommands } from "./registrars/messages.js";
import { registerOtpCommands } from "./registrars/otp.js";
import { registerSandboxCommands } from "./registrars/sandbox.js";
import { registerSettingsCommands } from "./registrars/settings.js";
import { registerSimulateCommands } from "./registrars/simulate.js";
import { registerSnapshotCommands } from "./registrars/snapshot.js";
import { registerToolCommands } from "./registrars/tools.js";
import { registerWaitCommands } from "./registrars/wait.js";
import { registerWebhookCommands } from "./registrars/webhooks.js";

/**
 * The msgctl program: its global flags, then each group's commands, registered in the order
 * `msgctl --help` lists them. A group's registrar (registrars/) declares its commands; each
 * command's module (commands/) is imported only when it runs.
 */
export function createProgram(version: string) {
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
        .default(DEFAULT_STATE_DIR),
    )
    .option("--json", "print results as JSON for scripts")
    .addHelpText(
      "after",
      "\nExit status: 0 success; 1 the API refused, no sandbox was found or reached, or a wait timed out;\n" +
        "2 a usage error; 130 / 143 a wait ended by SIGINT / SIGTERM; 130 Ctrl-C in a prompt.",
    );

  registerSandboxCommands(program);
  registerClockCommands(program);
  registerSettingsCommands(program);
  registerSnapshotCommands(program);
  registerAccountCommands(program);
  registerToolCommands(program);
  registerMessageCommands(program);
  registerContactCommands(program);
  registerSimulateCommands(program);
  registerChatCommands(program);
  registerAttachmentCommands(program);
  registerWebhookCommands(program);
  registerChaosCommands(program);
  registerOtpCommands(program);
  registerWaitCommands(program);
  registerCompletionCommands(program);
  return program;
}
