import { Option, type Command } from "commander";
import { CHALLENGE_STATUSES } from "../contract/statuses.js";
import type { action as Action } from "./program.js";

const CHANNELS = ["imessage", "sms", "whatsapp"];

/**
 * `msgctl otp …` (SANDBOX.md section 6): the OTP API, the user's texts and the walkthrough. Maps
 * flags to options and lazily imports the command functions, like program.ts.
 */
export function addOtpCommands(program: Command, action: typeof Action): void {
  const commands = () => import("./commands/otp.js");
  const otp = program
    .command("otp")
    .description("phone verification on the OTP host: challenges, the user's texts, a walkthrough");

  otp
    .command("create")
    .description("create a challenge (POST /v1/challenges); prints its code and what the app shows")
    .requiredOption("--phone <phone>", "the user's phone: E.164, or US national such as (415) 555-0123")
    .action(action(async (flags, out) => (await commands()).otpCreate(flags as never, out)));
  otp
    .command("get <id>")
    .description("a challenge's status (GET /v1/challenges/:id)")
    .action(action(async (flags, out, id: string) => (await commands()).otpGet(id, flags, out)));
  otp
    .command("consume <id>")
    .description("consume a verified challenge, once: sign-in is complete (POST /v1/challenges/:id/consume)")
    .action(action(async (flags, out, id: string) => (await commands()).otpConsume(id, flags, out)));
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
    .action(action(async (flags, out, id: string) => (await commands()).otpText(id, flags as never, out)));
  otp
    .command("thread <phone>")
    .description("the OTP numbers' conversation with a phone, as the phone shows it (texts and replies)")
    .action(action(async (flags, out, phone: string) => (await commands()).otpThread(phone, flags, out)));
  otp
    .command("walkthrough")
    .description("interactive: create a challenge, show it as the app would, choose what the user does, poll, consume")
    .action(
      action(async (flags, out) => {
        const { otpWalkthrough } = await import("./commands/otp-walkthrough.js");
        await otpWalkthrough(flags, out);
      }),
    );
}

/** `msgctl simulate otp-fault unavailable [--off]`, added to the `simulate` group. */
export function addOtpFaultCommand(simulate: Command, action: typeof Action): void {
  simulate
    .command("otp-fault <fault>")
    .description("unavailable: the OTP host's /v1 answers 503 unavailable until --off (/healthz stays up)")
    .option("--off", "end the outage")
    .action(
      action(async (flags, out, fault: string) => (await import("./commands/otp.js")).otpFault(fault, flags, out)),
    );
}

/** `msgctl wait otp ID --status S [--timeout 10s]`, added to the `wait` group. */
export function addOtpWaitCommand(wait: Command, action: typeof Action): void {
  wait
    .command("otp <id>")
    .description("wait until a challenge is at a status or past it (consumed satisfies verified)")
    .addOption(new Option("--status <status>", "the status to reach").choices(CHALLENGE_STATUSES).makeOptionMandatory())
    .option("--timeout <duration>", "real time to wait", "10s")
    .action(
      action(async (flags, out, id: string) => {
        const { waitOtp } = await import("./commands/otp-wait.js");
        await waitOtp(id, flags as never, out);
      }),
    );
}
