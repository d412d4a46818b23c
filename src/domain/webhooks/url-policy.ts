import { AppError } from "../../lib/app-error.js";
import { forbiddenAddressReason, parseWebhookUrl, type UrlPolicy, type WebhookTarget } from "../../lib/webhook-url.js";
import { cacheOf, type DomainContext } from "../core/index.js";
import { LOOPBACK_ADDRESSES } from "./pinned-lookup.js";

/** How long URL checks at creation wait for DNS before accepting the name as it is (real ms). */
const CREATE_RESOLVE_TIMEOUT_MS = 3_000;

// A delivery waits for DNS as long as for the receiver; a creation never longer than that either.
const createResolveTimeout = (ctx: DomainContext) => Math.min(CREATE_RESOLVE_TIMEOUT_MS, ctx.settings.webhookTimeoutMs);

/** The URL policy in force: loopback allowed unless `--strict-urls` (the strict_urls setting). */
function urlPolicy(ctx: DomainContext): UrlPolicy {
  return { allowLoopback: !ctx.settings.strictUrls };
}

/** The first forbidden address among a host's addresses, with the reason. */
function firstForbidden(addresses: string[], policy: UrlPolicy): string | undefined {
  for (const address of addresses) {
    const reason = forbiddenAddressReason(address, policy);
    if (reason) return reason;
  }
  return undefined;
}

/** Resolves a host, giving up after `ms` real milliseconds (a stalled resolver never blocks a lane). */
async function resolveWithin(
  ctx: DomainContext,
  host: string,
  ms: number,
): Promise<{ addresses: string[] } | { error: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ error: string }>((resolve) => {
    timer = setTimeout(() => resolve({ error: `no answer within ${ms} ms` }), ms);
  });
  const lookup = ctx.resolveHost(host).then(
    (addresses) => ({ addresses }),
    (error: NodeJS.ErrnoException) => ({ error: error.code ?? error.message }),
  );
  try {
    return await Promise.race([lookup, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks a webhook URL at creation or PATCH (spec 4.4): public http(s) only, 400 invalid_url
 * otherwise. A DNS name is resolved and refused when any address is forbidden; a name that does
 * not resolve (yet, or offline) is accepted, since every delivery resolves it again.
 */
export async function checkWebhookUrl(ctx: DomainContext, input: string): Promise<string> {
  const policy = urlPolicy(ctx);
  const target = parseWebhookUrl(input, policy);
  if (target.isIp || target.isLoopbackName) return target.href;
  const resolved = await resolveWithin(ctx, target.host, createResolveTimeout(ctx));
  const reason = "addresses" in resolved ? firstForbidden(resolved.addresses, policy) : undefined;
  if (reason)
    throw new AppError(
      "invalid_url",
      400,
      `url: ${target.host} resolves to ${reason}; webhook URLs must be public http(s) endpoints`,
    );
  return target.href;
}

/** What a delivery may do with its endpoint's URL right now. */
export type DeliveryTarget =
  /** Go ahead; `addresses` (for a name) are the checked ones the connection must use. */
  | { kind: "ok"; addresses?: string[] }
  /** The host now is, or resolves to, a forbidden address: the delivery is dropped, never retried. */
  | { kind: "drop"; reason: string }
  /** The name did not resolve: a failed attempt, retried on the ladder. */
  | { kind: "unresolved"; error: string };

/** A URL parsed under a policy, or why the policy refuses it; remembered (every attempt parses its endpoint's URL). */
function parsedUnderPolicy(ctx: DomainContext, href: string, policy: UrlPolicy): WebhookTarget | { refused: string } {
  const cache = cacheOf<string, WebhookTarget | { refused: string }>(ctx, "webhook-url-targets");
  const key = `${policy.allowLoopback ? "loopback" : "strict"} ${href}`;
  let parsed = cache.get(key);
  if (!parsed) {
    try {
      parsed = parseWebhookUrl(href, policy);
    } catch (error) {
      parsed = { refused: (error as Error).message.replace(/^url: /, "") };
    }
    if (cache.size >= 1_000) cache.clear();
    cache.set(key, parsed);
  }
  return parsed;
}

/**
 * The delivery target when no DNS lookup is needed (an IP literal or a loopback name, or a URL
 * the policy now refuses); undefined when the host is a name to resolve (checkDeliveryTarget).
 */
export function deliveryTargetAtOnce(
  ctx: DomainContext,
  href: string,
  policy: UrlPolicy = urlPolicy(ctx),
): DeliveryTarget | undefined {
  const parsed = parsedUnderPolicy(ctx, href, policy);
  if ("refused" in parsed) return { kind: "drop", reason: parsed.refused };
  if (parsed.isIp) return { kind: "ok" };
  if (parsed.isLoopbackName) return { kind: "ok", addresses: LOOPBACK_ADDRESSES };
  return undefined;
}

/**
 * Resolves the endpoint's host again before each attempt (spec 4.4: a delivery whose host later
 * resolves to a forbidden address is dropped). The policy is the one in force now. The addresses
 * returned are the only ones the attempt may connect to (webhook-pinned-lookup.ts). A handler
 * check passes a policy of its own (loopback always allowed).
 */
export async function checkDeliveryTarget(
  ctx: DomainContext,
  href: string,
  policy: UrlPolicy = urlPolicy(ctx),
): Promise<DeliveryTarget> {
  const atOnce = deliveryTargetAtOnce(ctx, href, policy);
  if (atOnce) return atOnce;
  const host = (parsedUnderPolicy(ctx, href, policy) as WebhookTarget).host;
  const resolved = await resolveWithin(ctx, host, ctx.settings.webhookTimeoutMs);
  if ("error" in resolved) return { kind: "unresolved", error: `cannot resolve ${host} (${resolved.error})` };
  const { addresses } = resolved;
  if (addresses.length === 0) return { kind: "unresolved", error: `cannot resolve ${host} (no addresses)` };
  const reason = firstForbidden(addresses, policy);
  return reason ? { kind: "drop", reason: `${host} resolves to ${reason}` } : { kind: "ok", addresses };
}
