import { Option, type Command } from "@commander-js/extra-typings";
import { action } from "../action.js";
import { DELIVERY_STATUSES, EVENT_NAMES } from "../choices.js";
import { completes } from "../completion-hints.js";
import { DEFAULT_PAGE_SIZE, DEFAULT_SIGNATURE_TOLERANCE_S } from "../defaults.js";
import { wholeNumber } from "../flag-parsers.js";

/** `--events a,b`: event names, completed one after another. */
const eventsOption = (description: string) =>
  completes(new Option("--events <names>", description), { values: EVENT_NAMES, commaSeparated: true });

/** `msgctl webhooks …`: endpoints, deliveries, live events, signature and handler checks. */
export function registerWebhookCommands(program: Command): void {
  const commands = () => import("../commands/webhooks.js");
  const live = () => import("../commands/webhooks-live.js");
  const webhooks = program
    .command("webhooks")
    .description("webhook endpoints, deliveries, live events, signature and handler checks");

  webhooks
    .command("create")
    .description("create an endpoint (POST /v1/webhooks); prints its signing secret")
    .requiredOption("--url <url>", "public http(s) URL (loopback too, unless the sandbox runs with --strict-urls)")
    .addOption(eventsOption("comma-separated event names (default: every event)"))
    .option("--secret <secret>", "your own signing secret, 16-200 characters (default: a generated whsec_…)")
    .option("--idempotency-key <key>", "repeat-safe creation: the same key returns the same endpoint")
    .action(action(commands, "webhooksCreate"));

  webhooks
    .command("list")
    .description("the account's endpoints, newest first (never with secrets)")
    .action(action(commands, "webhooksList"));

  webhooks.command("get <id>").description("one endpoint (no secret)").action(action(commands, "webhooksGet"));

  webhooks
    .command("update <id>")
    .description("change an endpoint's url, events, secret, or pause/resume it")
    .option("--url <url>", "new URL")
    .addOption(eventsOption("replace the subscription (comma-separated event names)"))
    .option("--secret <secret>", "new signing secret, 16-200 characters")
    .option("--enable", "resume deliveries (events from now on)")
    .option("--disable", "pause: no deliveries; pending retries are abandoned")
    .action(action(commands, "webhooksUpdate"));

  webhooks
    .command("rotate <id>")
    .description("issue a new generated secret, used from the next attempt on")
    .action(action(commands, "webhooksRotate"));

  webhooks
    .command("delete <id>")
    .description("delete an endpoint; its pending deliveries are abandoned")
    .action(action(commands, "webhooksDelete"));

  const deliveries = webhooks
    .command("deliveries")
    .description("deliveries and their attempts, newest first; `deliveries get ID` shows one")
    .option("--webhook <id>", "only this endpoint's")
    // Not `.choices()`: the sandbox judges the status, and a wrong one is its 400 (exit 1), as scripts expect.
    .addOption(
      completes(
        new Option("--status <status>", `${DELIVERY_STATUSES.slice(0, -1).join(", ")} or ${DELIVERY_STATUSES.at(-1)}`),
        { values: DELIVERY_STATUSES },
      ),
    )
    .option("--event <id>", "only this event's")
    .option("--limit <n>", "how many (1-100)", wholeNumber, DEFAULT_PAGE_SIZE)
    .option("--before <time>", "only deliveries created before this time (the `More:` hint's value)")
    .option("--all", "every page (without it --json prints one page, and a note on stderr says when more exist)")
    .action(action(commands, "webhooksDeliveries"));
  deliveries
    .command("get <delivery-id>")
    .description("one delivery, its attempts and the signature each carried")
    .option("--body", "print only the body its attempts POST, byte for byte (for `webhooks verify --body-file`)")
    .action(action(commands, "webhooksDeliveryGet"));

  webhooks
    .command("resend <delivery-id>")
    .description("attempt a delivery's event again now, signed afresh (outside the retry ladder)")
    .action(action(commands, "webhooksResend"));

  webhooks
    .command("tail")
    .description("stream every event as it is emitted, until interrupted")
    .addOption(eventsOption("only these event names (comma-separated)"))
    .action(action(live, "webhooksTail"));

  webhooks
    .command("listen")
    .description("create an endpoint for URL, print each delivery to it live, delete it on exit")
    .requiredOption("--forward-to <url>", "where deliveries go, e.g. http://localhost:3000/webhooks")
    .addOption(eventsOption("only these event names (comma-separated)"))
    .option(
      "--secret <secret>",
      "sign with this secret (16-200 characters); by default the state directory's, the same on every run",
    )
    .action(action(live, "webhooksListen"));

  webhooks
    .command("check")
    .description("send a battery of probes to your own handler and grade each answer (exit 1 when one fails)")
    .requiredOption("--url <url>", "your handler, e.g. http://localhost:3000/webhooks (loopback always allowed)")
    .requiredOption("--secret <secret>", "the signing secret your handler verifies with (whsec_… included)")
    .action(action(() => import("../commands/webhooks-check.js"), "webhooksCheck"));

  webhooks
    .command("verify")
    .description("check a delivery's signature and explain why it does or does not verify")
    .requiredOption("--secret <secret>", "the endpoint's signing secret (whsec_… included)")
    .requiredOption("--header <value>", "the X-service-Signature header (t=…,v1=…)")
    .requiredOption("--body-file <path>", "the raw body, byte for byte")
    .option("--tolerance <seconds>", "replay window", wholeNumber, DEFAULT_SIGNATURE_TOLERANCE_S)
    .option("--at <time>", "check the timestamp against this ISO time instead of now")
    .action(action(() => import("../commands/webhooks-verify.js"), "webhooksVerify"));
}
