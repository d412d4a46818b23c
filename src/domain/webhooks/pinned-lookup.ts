import { isIP, type LookupFunction } from "node:net";

/** The addresses a `localhost` name may reach, whatever a resolver says (RFC 6761). */
export const LOOPBACK_ADDRESSES = ["127.0.0.1", "::1"];

type LookupAddress = { address: string; family: number };

/**
 * A DNS lookup that answers only `addresses`: the ones a delivery checked (spec 4.4). The socket
 * then connects to an address that passed the URL policy, so a name whose answer changes between
 * the check and the connection (DNS rebinding) cannot reach a forbidden one. The URL keeps its
 * host name, so the Host header and TLS SNI are those of the endpoint.
 */
export function pinnedLookup(addresses: string[]): LookupFunction {
  const entries: LookupAddress[] = addresses.map((address) => ({ address, family: isIP(address) }));
  return ((
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: (...args: unknown[]) => void,
  ) => {
    const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : Number(options.family ?? 0);
    const wanted = family === 4 || family === 6 ? entries.filter((entry) => entry.family === family) : entries;
    if (wanted.length === 0) {
      callback(Object.assign(new Error(`no checked address for ${hostname}`), { code: "ENOTFOUND" }));
    } else if (options.all) {
      callback(null, wanted);
    } else {
      callback(null, wanted[0]!.address, wanted[0]!.family);
    }
  }) as LookupFunction;
}

/** An HTTP dispatcher pinned to checked addresses, for one attempt. */
export interface PinnedDispatcher {
  /** Passed to fetch as `dispatcher`. */
  dispatcher: unknown;
  close(): Promise<void>;
}

/**
 * An undici Agent whose connections resolve the endpoint's name through `pinnedLookup`. undici
 * is loaded on the first delivery only (start-up stays fast); Node 20's global fetch accepts the
 * Agent of the pinned undici 7 package.
 */
export async function pinnedDispatcher(addresses: string[]): Promise<PinnedDispatcher> {
  const loaded = await import("undici");
  // In the bundle undici is a chunk of its own whose only export is the CommonJS default.
  const { Agent } = (loaded as unknown as { default?: Pick<typeof loaded, "Agent"> }).default ?? loaded;
  const agent = new Agent({ connect: { lookup: pinnedLookup(addresses) } });
  return { dispatcher: agent, close: () => agent.destroy().catch(() => {}) };
}
