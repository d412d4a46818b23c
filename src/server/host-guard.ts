import type { H3Event } from "h3";
import { AppError } from "../lib/app-error.js";
import { clip } from "../lib/bounded-input.js";
import {
  canonicalHostName,
  hostNameOfHeader,
  httpOriginParts,
  isAllowedHostName,
  isLoopbackAddress,
  isLoopbackHostName,
  type AllowedHost,
} from "../lib/host-names.js";

/** What decides who may talk to the sandbox. */
export interface HostGuardOptions {
  /** The address the hosts listen on (`--host`): a name the sandbox answers to too. */
  bindHost: string;
  /** The names of `--allowed-hosts`, parsed (lib/host-names.ts). */
  allowedHosts: readonly AllowedHost[];
}

// Distinct Host and Origin values seen; a client cycling through values only refills the cache.
const MAX_REMEMBERED = 256;

/**
 * The checks at the edge of both hosts, before any key is read and before the inspector's page:
 * the DNS-rebinding class (a page whose domain re-resolves to 127.0.0.1 is same-origin with the
 * sandbox) is stopped by the Host allowlist, and a page on another origin by the Origin check.
 */
export class HostGuard {
  readonly #allowed: readonly AllowedHost[];
  readonly #ports = new Set<number>();
  readonly #hostVerdicts = new Map<string, boolean>();

  constructor(options: HostGuardOptions) {
    const bound = canonicalHostName(options.bindHost);
    this.#allowed = bound ? [...options.allowedHosts, { name: bound, subdomains: false }] : options.allowedHosts;
  }

  /** A host now listens on `port`: `http://H:port` is one of the sandbox's own origins. */
  addPort(port: number): void {
    this.#ports.add(port);
  }

  /** Whether a canonical name is the sandbox's: loopback, the listen address or an allowed name. */
  isAllowedName(name: string): boolean {
    return isLoopbackHostName(name) || isAllowedHostName(name, this.#allowed);
  }

  /**
   * Throws 403 `forbidden_host` for a Host that is not an allowed name (`anyHost`: a route that
   * answers whatever the Host, GET /healthz), and 403 `forbidden_origin` for an `Origin` that is
   * not `http://H:P` with H allowed and P either host's port (`null` included).
   */
  check(event: H3Event, anyHost: boolean): void {
    if (!anyHost) this.#checkHost(event);
    const origin = event.req.headers.get("origin");
    if (origin !== null && !this.#isOwnOrigin(origin)) {
      throw new AppError(
        "forbidden_origin",
        403,
        `Origin ${JSON.stringify(clip(origin, 100))}${origin === "null" ? " (a sandboxed frame, a file: page or a redirect)" : ""} ` +
          "is not this sandbox: web pages on other origins may not call it (its keys are for servers, not browsers, " +
          "and it sends no CORS headers); call it from your server instead",
      );
    }
  }

  #checkHost(event: H3Event): void {
    // Over a socket, the header as sent (node's URL falls back to the local address without one);
    // in process (`app.request`), the URL the caller gave.
    const node = event.runtime?.node?.req;
    const value = node ? node.headers.host : (event.req.headers.get("host") ?? event.url.host);
    if (value === undefined || value === "") {
      throw new AppError(
        "forbidden_host",
        403,
        "The request has no Host header: send the name you reach the sandbox at (Host: localhost:4010, say)",
      );
    }
    let allowed = this.#hostVerdicts.get(value);
    if (allowed === undefined) {
      const name = hostNameOfHeader(value);
      allowed = name !== undefined && this.isAllowedName(name);
      if (this.#hostVerdicts.size >= MAX_REMEMBERED) this.#hostVerdicts.clear();
      this.#hostVerdicts.set(value, allowed);
    }
    if (!allowed) {
      const name = hostNameOfHeader(value);
      const hint = name
        ? `; to reach it by this name, start it with --allowed-hosts ${name.includes(":") ? `[${name}]` : name} (startSandbox: allowedHosts)`
        : "";
      throw new AppError(
        "forbidden_host",
        403,
        `Host ${JSON.stringify(clip(value, 100))} is not a name of this sandbox: it answers localhost, *.localhost, ` +
          `127.0.0.0/8, [::1], the address it listens on and the names given to --allowed-hosts${hint}`,
      );
    }
  }

  #isOwnOrigin(origin: string): boolean {
    const parts = httpOriginParts(origin);
    return parts !== undefined && this.#ports.has(parts.port) && this.isAllowedName(parts.name);
  }
}

/**
 * Whether the request came from this machine's loopback. In process (`app.request`) the caller
 * is this very process, unless it names a peer with h3's `clientAddress` context (tests do).
 */
export function isLoopbackPeer(event: H3Event): boolean {
  const node = event.runtime?.node?.req;
  if (node) return isLoopbackAddress(node.socket?.remoteAddress ?? "");
  const injected = (event.context as { clientAddress?: string }).clientAddress;
  return injected === undefined || isLoopbackAddress(injected);
}
