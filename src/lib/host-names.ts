import ipaddr from "ipaddr.js";
import { invalidRequest } from "./app-error.js";

/**
 * Host names as the sandbox's Host and Origin checks compare them. A name is compared in one
 * canonical form: lower case, without the trailing dot of a fully qualified name (`localhost.`
 * is `localhost`), IPv6 literals without brackets in their shortest form (`[0:0::1]` is `::1`).
 */

/** One entry of `--allowed-hosts`: a name, or with a leading dot that name and every name under it. */
export interface AllowedHost {
  name: string;
  subdomains: boolean;
}

const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
/** An IPv4 address as browsers write it in a Host header (the URL parser turns `127.1` into this). */
const DOTTED_QUAD = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
// Underscores are allowed: container and compose service names carry them.
const LABEL = "[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?";
const DNS_NAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`);

/**
 * The canonical form of a host name or IP literal (brackets optional around IPv6), or undefined
 * when the text is neither: a port, a scheme, a space or a wildcard make it no name at all.
 */
export function canonicalHostName(text: string): string | undefined {
  const lower = text.toLowerCase();
  const bracketed = lower.startsWith("[") && lower.endsWith("]");
  const bare = bracketed ? lower.slice(1, -1) : lower;
  if (bare.includes(":")) return isIpv6(bare) ? ipv6(bare) : undefined;
  if (bracketed) return undefined;
  const name = bare.endsWith(".") ? bare.slice(0, -1) : bare;
  return DOTTED_QUAD.test(name) || DNS_NAME.test(name) ? name : undefined;
}

const isIpv6 = (text: string) => !text.includes("%") && ipaddr.IPv6.isValid(text);
const ipv6 = (text: string) => ipaddr.IPv6.parse(text).toString();

/**
 * The host name of a Host header value (`name`, `name:port`, `[v6]:port`), canonical, or
 * undefined when the value is not one. The port is not looked at: any port is the host's.
 */
export function hostNameOfHeader(value: string): string | undefined {
  const match = /^(\[[^\]]*\]|[^:[\]]*)(?::\d{1,5})?$/.exec(value);
  if (!match?.[1]) return undefined;
  return canonicalHostName(match[1]);
}

/** A serialized `http:` origin split into its canonical host name and port (80 when none is written). */
export function httpOriginParts(origin: string): { name: string; port: number } | undefined {
  const match = /^http:\/\/(\[[^\]]*\]|[^:/[\]]+)(?::(\d{1,5}))?$/i.exec(origin);
  const name = match?.[1] && canonicalHostName(match[1]);
  if (!match || !name) return undefined;
  return { name, port: match[2] === undefined ? 80 : Number(match[2]) };
}

/**
 * Loopback by definition: `localhost` and every name under `.localhost` (RFC 6761: browsers
 * resolve them to loopback without asking DNS), `127.0.0.0/8` and `::1`. Takes a canonical name.
 */
export function isLoopbackHostName(name: string): boolean {
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (DOTTED_QUAD.test(name)) return name.startsWith("127.");
  return name === "::1";
}

/** Whether a peer's IP address (as a socket reports it, IPv4-mapped IPv6 included) is loopback. */
export function isLoopbackAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "loopback";
}

/** Whether a canonical host name is one of `allowed`. */
export function isAllowedHostName(name: string, allowed: readonly AllowedHost[]): boolean {
  return allowed.some((entry) => name === entry.name || (entry.subdomains && name.endsWith(`.${entry.name}`)));
}

/**
 * Reads the names given to `--allowed-hosts` (or `startSandbox({ allowedHosts })`): exact names
 * or IP literals, case-insensitive, with no port (any port is allowed); a leading dot allows the
 * name and every name under it. Anything else is 400 `invalid_request` naming `label`.
 */
export function parseAllowedHosts(entries: readonly unknown[], label: string): AllowedHost[] {
  return entries.map((entry) => {
    if (typeof entry !== "string") throw invalidRequest(`${label}: each entry must be a string (got ${typeof entry})`);
    const text = entry.trim();
    const subdomains = text.startsWith(".");
    const name = canonicalHostName(subdomains ? text.slice(1) : text);
    if (!name || (subdomains && (name.includes(":") || DOTTED_QUAD.test(name)))) {
      throw invalidRequest(
        `${label}: ${JSON.stringify(entry.slice(0, 100))} is not a host name; give names such as sandbox.test, ` +
          "an IP address, or .example.test for that name and every name under it, with no scheme or port (any port is allowed)",
      );
    }
    return { name, subdomains };
  });
}

/** The names of a comma-separated `--allowed-hosts` value, empty entries left out. */
export function splitHostList(value: string): string[] {
  return value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}
