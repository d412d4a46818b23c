import { Option, type Command } from "@commander-js/extra-typings";
import { action } from "../action.js";
import { CHANNELS } from "../choices.js";

/** `msgctl otp …`: the OTP API, the user's texts and the walkthrough. */
export function registerOtpCommands(program: Command): void {
  const commands = () => import("../commands/otp.js");
  const otp = program
    .command("otp")
    .description("phone verification on the OTP host: challenges, the user's texts, a walkthrough");

  otp
    .command("create")
    .description("create a challenge (POST /v1/challenges); prints its code and what the app shows")
    .requiredOption("--phone <phone>", "the user's phone: E.164, or US national such as (415) 555-0123")
    .action(action(commands, "otpCreate"));
  otp
    .command("get <id>")
    .description("a challenge's status (GET /v1/challenges/:id)")
    .action(action(commands, "otpGet"));
  otp
    .command("consume <id>")
    .description("consume a verified challenge, once: sign-in is complete (POST /v1/challenges/:id/consume)")
    .action(action(commands, "otpConsume"));
  otp
    .command("text <id>")
    .description(
      "the user texts the OTP number: by default the right code from the challenge's phone; prints the reply",
    )
    .option("--code <code>", "text this code instead of the right one")
    .option("--wrong", "text a six-digit code that is not the challenge's")
    .option("--text <text>", 'text these exact words (e.g. "my code is 123456", which is ignored)')
    .option("--from <phone>", "text from another phone than the challenge's")
    .addOption(
      new Option(
        "--channel <channel>",
        "default: iMessage if the phone is on it, else SMS; whatsapp texts the WhatsApp OTP number",
      ).choices(CHANNELS),
    )
    .option(
      "--members <phones>",
      "send it in a group chat with these other members (comma-separated; group texts are ignored)",
    )
    .option(
      "--outcome",
      "with --json, print { challenge, outcome, reply, explanation }: what the text did (verified, wrong_code, ignored, locked…) and the reply's words, not only the challenge",
    )
    .action(action(commands, "otpText"));
  otp
    .command("thread <phone>")
    .description("the OTP numbers' conversation with a phone, as the phone shows it (texts and replies)")
    .action(action(commands, "otpThread"));
  otp
    .command("walkthrough")
    .description("interactive: create a challenge, show it as the app would, choose what the user does, poll, consume")
    .action(action(() => import("../commands/otp-walkthrough.js"), "otpWalkthrough"));
}
