import { input, select } from "@inquirer/prompts";
import type { MsgctlClient } from "../../client/client.js";
import { ApiError } from "../../client/http.js";
import type {
  ChallengeResource,
  ChallengeStatus,
  ChallengeTextInput,
  ClockView,
  CreatedChallenge,
} from "../../contract/index.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { interruptible } from "../interrupt.js";
import type { Output } from "../output.js";
import { startProgress } from "../progress.js";
import { UsageError } from "../usage-error.js";
import { challengeStatusText, textResultLines } from "./otp-format.js";

/** The prompts the walkthrough asks with; tests pass scripted ones. */
export interface WalkthroughPrompts {
  input(config: { message: string; default?: string; validate?: (value: string) => boolean | string }): Promise<string>;
  select<T extends string>(config: {
    message: string;
    choices: { name: string; value: T; description?: string }[];
  }): Promise<T>;
}

/** The real prompts, from @inquirer/prompts. */
export const inquirerWalkthroughPrompts: WalkthroughPrompts = {
  input: (config) => input(config),
  select: (config) => select(config),
};

/** What the person can have the user (or the app) do next. */
type Step = "right" | "whatsapp" | "wrong" | "other-phone" | "words" | "late" | "consume" | "quit";

/** What each status means to the app, as the walkthrough explains it (spec sections 3, 4.6). */
const STATUS_MEANING: Record<ChallengeStatus, string> = {
  pending:
    "Still pending: the app keeps polling every couple of seconds. After 5 wrong texts the challenge stops matching, even with its code.",
  verified:
    "Verified: the text came from the phone with the code. Sign-in is not complete yet: the app consumes the challenge, once.",
  consumed: "Consumed: sign-in is complete. Consuming again would answer 409 already_consumed.",
  expired:
    "Expired: 10 minutes passed without a consume. The app cannot use it any more (410 expired) and must create a new challenge.",
};

/** What an API error means to the app, for the codes the flow can meet (spec section 7). */
const ERROR_MEANING: Record<string, string> = {
  not_verified:
    "409 not_verified: the user's text has not arrived yet. The app keeps polling and consumes after `verified`.",
  already_consumed:
    "409 already_consumed: this challenge already signed someone in; a challenge is consumed exactly once.",
  expired: "410 expired: the challenge expired before it was consumed. The app creates a new one.",
  rate_limited:
    "429 rate_limited: too many challenges for this phone or account in the last minute. Retry after the Retry-After seconds.",
  forbidden: "403 forbidden: this OTP account is suspended (fixture otp_suspended).",
  unavailable:
    "503 unavailable: verification is down (simulate otp-fault unavailable). Safe to retry; `msgctl simulate otp-fault unavailable --off` ends it.",
  invalid_phone:
    "400 invalid_phone: not a valid phone number. US national formats work; other countries need their +code.",
  unauthorized:
    "401 unauthorized: the OTP host takes otp_live_… keys only (pass --otp-api-key, or run in the directory of `msgctl serve`).",
};

function explainError(error: unknown): string {
  if (!(error instanceof ApiError)) throw error;
  return ERROR_MEANING[error.code] ?? `${error.status} ${error.code}: ${error.message}`;
}

/** A fictional phone other than the user's, for "texts from another phone". */
const otherPhone = (phone: string) => (phone === "+14155550199" ? "+14155550198" : "+14155550199");

/**
 * `msgctl otp walkthrough`: one phone verification from both sides. It creates a challenge,
 * shows what the app would show, lets the person choose what the user does, polls like an app
 * (with a spinner), consumes, and explains each state and error as it happens.
 */
export async function otpWalkthrough(
  options: ConnectionFlags,
  out: Output,
  prompts: WalkthroughPrompts = inquirerWalkthroughPrompts,
  pollMs = 400,
): Promise<ChallengeResource | undefined> {
  if (out.json)
    throw new UsageError(
      "`msgctl otp walkthrough` is interactive: --json does not apply (script the steps with `otp create`, `otp text`, `otp consume`)",
    );
  if (!out.interactive && prompts === inquirerWalkthroughPrompts)
    throw new UsageError("`msgctl otp walkthrough` asks questions: run it in a terminal");
  const client = connect(options, "otp");
  const { color } = out;
  const say = (text = "") => out.line(text);

  say(color.bold("A phone verification, from both sides."));
  say("Your app creates a challenge, shows the user a code and a number; the user texts the code from");
  say("their phone; the app polls the challenge and consumes it once it is verified.");
  say();
  // libphonenumber's metadata is loaded for this prompt only, not by every OTP command.
  const { normalizePhone } = await import("../../lib/handles.js");
  const phone = await prompts.input({
    message: "The user's phone number",
    default: "+14155550123",
    validate: (value) =>
      normalizePhone(value, "US") ? true : "Enter a valid number: E.164 (+14155550123) or US national ((415) 555-0123)",
  });

  // --- The app creates the challenge ---
  let created: CreatedChallenge;
  try {
    created = await client.otp.create(phone);
  } catch (error) {
    say(color.red(explainError(error)));
    throw error;
  }
  say();
  say(
    `${color.green("✔")} The app called POST /v1/challenges: challenge ${created.id} is ${challengeStatusText(color, "pending")} until ${created.expires_at}.`,
  );
  say(color.dim("What the app shows the user:"));
  say(`    Text ${color.bold(created.code)} to ${created.send_to.display}`);
  say(`    [Text the code]    ${created.send_to.sms_link}`);
  say(
    created.whatsapp
      ? `    [Open WhatsApp]    ${created.whatsapp.link}`
      : color.dim("    (no WhatsApp number is offered)"),
  );
  say();

  // --- The user acts, the app polls ---
  let status: ChallengeStatus = "pending";
  for (;;) {
    const step = await prompts.select<Step>({ message: "What happens next?", choices: stepChoices(created) });
    if (step === "quit") {
      say(`Stopped. Challenge ${created.id} stays ${status}; it expires at ${created.expires_at}.`);
      return client.otp.get(created.id);
    }
    if (step === "consume") {
      const done = await consume(client, created.id, out);
      if (done) return done;
      continue;
    }
    if (step === "late" && !(await advanceTenMinutes(client, out))) continue;

    const result = await client.otp.text(created.id, textInput(step, created));
    say();
    for (const line of textResultLines(color, result)) say(`  ${line}`);
    status = (await poll(client, created.id, status, out, pollMs)).status;
    say(`  ${STATUS_MEANING[status]}`);
    say();
    if (status === "verified" || status === "expired") {
      const done = await consume(client, created.id, out);
      return done ?? client.otp.get(created.id);
    }
  }
}

function stepChoices(created: CreatedChallenge): { name: string; value: Step }[] {
  return [
    { name: `The user texts ${created.code} from ${created.phone}`, value: "right" },
    ...(created.whatsapp ? [{ name: `The user texts ${created.code} over WhatsApp`, value: "whatsapp" as const }] : []),
    { name: "The user texts a wrong code", value: "wrong" },
    { name: `Someone texts ${created.code} from another phone`, value: "other-phone" },
    { name: `The user texts "my code is ${created.code}" (other words)`, value: "words" },
    { name: "The user waits 10 minutes, then texts the code (advances the clock)", value: "late" },
    { name: "The app tries to consume now", value: "consume" },
    { name: "Stop here", value: "quit" },
  ];
}

function textInput(step: Step, created: CreatedChallenge): ChallengeTextInput {
  switch (step) {
    case "whatsapp":
      return { channel: "whatsapp" };
    case "wrong":
      return { wrong: true };
    case "other-phone":
      return { from: otherPhone(created.phone) };
    case "words":
      return { text: `my code is ${created.code}` };
    default:
      return {};
  }
}

/**
 * The app polls GET /v1/challenges/:id a few times, as it would every couple of seconds. The
 * spinner goes to stdout, as a line of the walkthrough's transcript; Ctrl-C while it spins ends
 * the walkthrough with 130, as it does in a prompt.
 */
async function poll(
  client: MsgctlClient,
  id: string,
  before: ChallengeStatus,
  out: Output,
  pollMs: number,
): Promise<ChallengeResource> {
  const label = `The app polls GET /v1/challenges/${id}`;
  const progress = startProgress(out, label, process.stdout);
  const challenge = await interruptible(async () => {
    try {
      let seen = await client.otp.get(id);
      for (let polls = 1; polls < 3 && seen.status === before; polls++) {
        progress.update(`${label}: ${seen.status}`);
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        seen = await client.otp.get(id);
      }
      return seen;
    } catch (error) {
      progress.fail();
      throw error;
    }
  }, progress.stop);
  const line = `${label}: ${challengeStatusText(out.color, challenge.status)}`;
  // Without a terminal (scripted answers) the result is a line of the transcript.
  if (out.interactive) progress.succeed(line);
  else out.line(`  ${line}`);
  return challenge;
}

/** The app consumes; prints what the answer means. Resolves with the challenge once consumed. */
async function consume(client: MsgctlClient, id: string, out: Output): Promise<ChallengeResource | undefined> {
  try {
    const consumed = await client.otp.consume(id);
    out.line(
      `${out.color.green("✔")} The app called POST /v1/challenges/${id}/consume: 200, ${challengeStatusText(out.color, consumed.status)} at ${consumed.consumed_at}.`,
    );
    out.line(`  ${STATUS_MEANING.consumed}`);
    return consumed;
  } catch (error) {
    out.line(`${out.color.red("✖")} The app called POST /v1/challenges/${id}/consume: ${explainError(error)}`);
    out.line();
    return undefined;
  }
}

/** Moves the sandbox clock 10 minutes (manual clock only); says so, or why it cannot. */
async function advanceTenMinutes(client: MsgctlClient, out: Output): Promise<boolean> {
  try {
    // Through the OTP host's control API: the walkthrough may have only the OTP key.
    const clock = (
      await client.http.request<ClockView>("otp", "POST", "/sandbox/v1/clock/advance", { body: { duration: "10m" } })
    ).data;
    out.line(out.color.dim(`  (the sandbox clock moved 10 minutes: it is now ${clock.now})`));
    return true;
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "invalid_state") throw error;
    out.line(
      out.color.yellow(
        "  The sandbox clock is real, so 10 minutes cannot be skipped: start it with --clock manual to try this.",
      ),
    );
    out.line();
    return false;
  }
}
