import { AppError } from "../lib/app-error.js";
import { forbiddenAddressReason, parseWebhookUrl, type UrlPolicy } from "../lib/webhook-url.js";
import type { DomainContext } from "./context.js";

/** How long URL checks at creation wait for DNS before accepting the name as it is (real ms). */
const CREATE_RESOLVE_TIMEOUT_MS = 3_000;

/** The URL policy in force: loopback allowed unless `--strict-urls` (SANDBOX.md section 1). */
export function urlPolicy(ctx: DomainContext): UrlPolicy {
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

async function resolveWithin(ctx: DomainContext, host: string, ms: number): Promise<string[] | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([ctx.resolveHost(host).catch(() => undefined), timeout]);
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
  const addresses = await resolveWithin(ctx, target.host, CREATE_RESOLVE_TIMEOUT_MS);
  const reason = addresses && firstForbidden(addresses, policy);
  if (reason) throw new AppError("invalid_url", 400, `url: ${target.host} resolves to ${reason}; webhook URLs must be public http(s) endpoints`);
  return target.href;
}

/** What a delivery may do with its endpoint's URL right now. */
export type DeliveryTarget =
  | { kind: "ok" }
  /** The host now is, or resolves to, a forbidden address: the delivery is dropped, never retried. */
  | { kind: "drop"; reason: string }
  /** The name did not resolve: a failed attempt, retried on the ladder. */
  | { kind: "unresolved"; error: string };

/**
 * Resolves the endpoint's host again before each attempt (spec 4.4: a delivery whose host later
 * resolves to a forbidden address is dropped). The policy is the one in force now.
 */
export async function checkDeliveryTarget(ctx: DomainContext, href: string): Promise<DeliveryTarget> {
  const policy = urlPolicy(ctx);
  let host: string;
  try {
    const target = parseWebhookUrl(href, policy);
    if (target.isIp || target.isLoopbackName) return { kind: "ok" };
    host = target.host;
  } catch (error) {
    return { kind: "drop", reason: (error as Error).message.replace(/^url: /, "") };
  }
  let addresses: string[];
  try {
    addresses = await ctx.resolveHost(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { kind: "unresolved", error: `cannot resolve ${host}${code ? ` (${code})` : `: ${(error as Error).message}`}` };
  }
  if (addresses.length === 0) return { kind: "unresolved", error: `cannot resolve ${host} (no addresses)` };
  const reason = firstForbidden(addresses, policy);
  return reason ? { kind: "drop", reason: `${host} resolves to ${reason}` } : { kind: "ok" };
}
