import type { JsonObject } from "../../contract/common.js";
import { checkWebhookBody, type ProbeResult, type WebhookCheckReport } from "../../contract/webhook-check.js";
import { AppError } from "../../lib/app-error.js";
import { isoTime } from "../../lib/clock.js";
import { parseInput } from "../../lib/validation.js";
import { parseWebhookUrl, type UrlPolicy } from "../../lib/webhook-url.js";
import { SIGNATURE_HEADER } from "../../lib/webhook-signature.js";
import type { DomainContext } from "../core/index.js";
import { USER_AGENT } from "./attempt.js";
import { probeBattery, gradeProbe, type ProbePlan } from "./check-probes.js";
import { connectionsOf } from "./connections.js";
import { postOverPool, postWebhook, timedOut, type PostOptions, type PostOutcome } from "./http.js";
import { checkDeliveryTarget } from "./url-policy.js";

/** The handler under test is local: loopback is allowed even under `--strict-urls`. */
const CHECK_POLICY: UrlPolicy = { allowLoopback: true };

/** The contact the probes' messages come from and go to (a number of the default profile). */
const PROBE_CONTACT = "+14155550191";
/** The account number the probes use when the account has none. */
const FALLBACK_ACCOUNT_HANDLE = "+14155550101";

/** Whose events the probes look like. */
export interface CheckAccount {
  /** One of the account's numbers, in the probes' `to` and `from`. */
  handle?: string;
}

/** POSTs as every delivery does: over kept-alive, pinned connections, or an injected fetch (tests). */
function post(ctx: DomainContext, options: PostOptions): Promise<PostOutcome> {
  return ctx.fetch ? postWebhook(ctx.fetch, options) : postOverPool(connectionsOf(ctx), options);
}

/** The URL checked under the webhook URL rules (loopback allowed), and the addresses to connect to. */
async function checkTarget(ctx: DomainContext, url: string): Promise<{ href: string; addresses?: string[] }> {
  const { href } = parseWebhookUrl(url, CHECK_POLICY);
  const target = await checkDeliveryTarget(ctx, href, CHECK_POLICY);
  if (target.kind === "drop") {
    throw new AppError("invalid_url", 400, `url: ${target.reason}; webhook URLs must be public http(s) endpoints`);
  }
  if (target.kind === "unresolved") throw unreachable(href, target.error);
  return { href, addresses: target.addresses };
}

const unreachable = (href: string, why: string) =>
  new AppError("unreachable", 422, `Cannot reach the handler at ${href}: ${why}. Is your app running there?`);

/**
 * `POST /sandbox/v1/webhooks/check` (docs/check.md): sends the battery of probes to the user's
 * handler one at a time, in order, each signed with the real signing code just before it goes
 * and posted as a delivery is (the acknowledgement window, pinned addresses, redirects not
 * followed), and grades each answer. Probes are not events: nothing is recorded, no endpoint is
 * made, no state changes. A handler that cannot be reached at all (its first probe finds no
 * connection, or its name does not resolve) is 422 `unreachable` instead of a report.
 */
export async function checkWebhookHandler(
  ctx: DomainContext,
  input: JsonObject,
  account: CheckAccount = {},
): Promise<WebhookCheckReport> {
  const { url, secret } = parseInput(checkWebhookBody, input);
  const target = await checkTarget(ctx, url);
  const windowMs = ctx.settings.webhookTimeoutMs;
  const battery = probeBattery({
    secret,
    otherSecret: `whsec_${ctx.ids.token(32)}`,
    uuid: () => ctx.ids.uuid(),
    accountHandle: account.handle ?? FALLBACK_ACCOUNT_HANDLE,
    contactHandle: PROBE_CONTACT,
    now: isoTime(ctx.clock.now()),
  });
  // Never aborted: the request that asked for the check waits for it, bounded by each probe's window.
  const signal = new AbortController().signal;

  const probes: ProbeResult[] = [];
  let validRefusedWith: number | undefined;
  for (const plan of battery) {
    const { outcome, ms } = await sendProbe(ctx, plan, target, windowMs, signal);
    const late = timedOut(outcome);
    if (probes.length === 0 && outcome.statusCode === null && !late) {
      throw unreachable(target.href, outcome.error ?? "no connection");
    }
    const answer = { status: outcome.statusCode, error: outcome.error, timedOut: late };
    const graded = gradeProbe(plan, answer, windowMs, validRefusedWith);
    if (plan.probe === "valid_event" && graded.verdict === "fail") validRefusedWith = outcome.statusCode ?? undefined;
    probes.push({ probe: plan.probe, status: outcome.statusCode, ms, ...graded });
  }
  return { url: target.href, passed: probes.every((probe) => probe.verdict === "pass"), probes };
}

/** One probe, signed now (wall-clock seconds, as every delivery's `t`), and how long its answer took (real ms). */
async function sendProbe(
  ctx: DomainContext,
  plan: ProbePlan,
  target: { href: string; addresses?: string[] },
  windowMs: number,
  signal: AbortSignal,
): Promise<{ outcome: PostOutcome; ms: number }> {
  const started = ctx.wallNow();
  const request = plan.request(Math.floor(started / 1000));
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "X-Msgctl-Event-Id": request.eventId,
    "X-Msgctl-Attempt": String(request.attempt),
    // Which probe this is, for the handler's logs; a correct handler needs nothing of it.
    "X-Msgctl-Check": plan.probe,
  };
  if (request.signature !== null) headers[SIGNATURE_HEADER] = request.signature;
  const outcome = await post(ctx, {
    url: target.href,
    body: request.body,
    headers,
    timeoutMs: windowMs,
    signal,
    pinTo: target.addresses,
  });
  return { outcome, ms: Math.max(0, Math.round(ctx.wallNow() - started)) };
}
