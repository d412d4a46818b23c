import ipaddr from "ipaddr.js";
import { AppError } from "./app-error.js";

/** Whether loopback targets are allowed (the sandbox default) or rejected (`--strict-urls`). */
export interface UrlPolicy {
  allowLoopback: boolean;
}

/** What an address is, as far as webhook targets go. */
export type AddressClass = { kind: "public" } | { kind: "loopback" } | { kind: "forbidden"; reason: string };

// Cloud metadata services, named in errors because they are what SSRF is usually after.
const METADATA_ADDRESSES = new Set(["169.254.169.254", "fd00:ec2::254"]);
const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata.goog"]);

// ipaddr.js range names → words for error messages. Anything but `unicast` is refused.
const RANGE_WORDS: Record<string, string> = {
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  carrierGradeNat: "a carrier-grade NAT (shared) address",
  private: "a private address",
  reserved: "a reserved address",
  uniqueLocal: "a unique-local (private) IPv6 address",
  ipv4Mapped: "an IPv4-mapped IPv6 address",
  rfc6145: "an IPv4-translated IPv6 address",
  rfc6052: "a NAT64 address embedding an IPv4 address",
  "6to4": "a 6to4 address embedding an IPv4 address",
  teredo: "a Teredo address embedding an IPv4 address",
};

/**
 * Classifies an IP address (IPv4 dotted quad or IPv6, brackets allowed). Only globally routable
 * unicast addresses are public; loopback is its own class because the sandbox allows it.
 */
export function classifyAddress(address: string): AddressClass {
  const text = address.replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(text)) return { kind: "forbidden", reason: `"${address}" is not an IP address` };
  const ip = ipaddr.parse(text);
  const shown = ip.toString();
  if (METADATA_ADDRESSES.has(shown)) return { kind: "forbidden", reason: `${shown} is the cloud metadata address` };
  const range = ip.range();
  if (range === "loopback") return { kind: "loopback" };
  if (ip.kind() === "ipv6" && range === "unicast" && isIpv4Compatible(ip as ipaddr.IPv6)) {
    // ::a.b.c.d (deprecated IPv4-compatible form): ipaddr.js calls it unicast, stacks route it to IPv4.
    return { kind: "forbidden", reason: `${shown} is an IPv4-compatible IPv6 address` };
  }
  if (range === "unicast") return { kind: "public" };
  return { kind: "forbidden", reason: `${shown} is ${RANGE_WORDS[range] ?? `in a special-purpose range (${range})`}` };
}

function isIpv4Compatible(ip: ipaddr.IPv6): boolean {
  return ip.parts.slice(0, 6).every((part) => part === 0);
}

/** The reason an address may not be a webhook target under the policy, or undefined. */
export function forbiddenAddressReason(address: string, policy: UrlPolicy): string | undefined {
  const verdict = classifyAddress(address);
  if (verdict.kind === "public") return undefined;
  if (verdict.kind === "loopback") {
    return policy.allowLoopback ? undefined : `${address} is a loopback address (refused with --strict-urls)`;
  }
  return verdict.reason;
}

/** A webhook URL that passed the static checks: the normalised href and what its host is. */
export interface WebhookTarget {
  href: string;
  /** Host without IPv6 brackets or a trailing dot. */
  host: string;
  /** The host is an IP literal (after WHATWG normalisation of decimal, octal, hex and short forms). */
  isIp: boolean;
  /** `localhost` or a `*.localhost` name, loopback by definition (RFC 6761). */
  isLoopbackName: boolean;
}

const MAX_URL_LENGTH = 2048;

const invalidUrl = (message: string) => new AppError("invalid_url", 400, `url: ${message}`);

/**
 * Parses and checks a webhook URL without any network: public http(s) only (spec 4.4). The
 * WHATWG parser turns `2130706433`, `0177.0.0.1`, `0x7f.0.0.1` and `127.1` into `127.0.0.1`, so
 * numeric tricks are judged as the address they are. DNS names are checked by the caller.
 */
export function parseWebhookUrl(input: string, policy: UrlPolicy): WebhookTarget {
  if (input.length > MAX_URL_LENGTH) throw invalidUrl(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw invalidUrl(`"${input}" is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalidUrl(`must use http or https (got ${url.protocol.slice(0, -1)})`);
  }
  if (url.username || url.password) throw invalidUrl("must not contain credentials (user:password@)");

  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  const isIp = url.hostname.startsWith("[") || ipaddr.IPv4.isValidFourPartDecimal(host);
  const isLoopbackName = !isIp && (host === "localhost" || host.endsWith(".localhost"));
  const target: WebhookTarget = { href: url.href, host, isIp, isLoopbackName };

  if (isIp) {
    const reason = forbiddenAddressReason(host, policy);
    if (reason) throw invalidUrl(`${reason}; webhook URLs must be public http(s) endpoints`);
  } else if (isLoopbackName && !policy.allowLoopback) {
    throw invalidUrl(`${host} is a loopback name (refused with --strict-urls)`);
  } else if (METADATA_HOSTS.has(host)) {
    throw invalidUrl(`${host} is a cloud metadata host`);
  }
  return target;
}
