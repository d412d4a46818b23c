import type { Pool } from "undici";
import type { DomainContext } from "../core/index.js";
import type { PostHandler } from "./http.js";
import { pinnedLookup } from "./pinned-lookup.js";

/** A pool unused this long is closed (real milliseconds); its idle sockets close sooner (undici's keep-alive). */
const IDLE_MS = 30_000;
/** Pools kept open at most: the least recently used one is closed beyond. */
const MAX_POOLS = 64;

type PoolClass = typeof Pool;
let poolClass: PoolClass | undefined;

/**
 * undici's Pool, loaded on the first delivery only (start-up stays fast). In the bundle undici is
 * a chunk of its own whose only export is the CommonJS default.
 */
async function loadPool(): Promise<PoolClass> {
  const loaded = await import("undici");
  poolClass ??= ((loaded as unknown as { default?: { Pool: PoolClass } }).default ?? loaded).Pool;
  return poolClass;
}

/**
 * Loads undici ahead of the first delivery, once an endpoint exists: the first attempt then does
 * not pay for loading it (about 80 ms), which an event emitted at once would wait for.
 */
export function preloadDeliveryAgent(ctx: DomainContext): void {
  if (poolClass || ctx.fetch) return;
  setImmediate(() => void loadPool().catch(() => {}));
}

/** True once undici is loaded (the first delivery, or an endpoint's creation, loads it). */
export const deliveryAgentLoaded = (): boolean => poolClass !== undefined;

/**
 * Keep-alive connections to webhook endpoints: one pool per origin and set of checked addresses.
 * A pool connects only through `pinnedLookup` of its own addresses, so a connection it keeps
 * alive always leads to an address the current attempt checked: when a name comes to resolve
 * elsewhere, the attempt gets another pool and never reuses the old connections (spec 4.4,
 * DNS rebinding). The URL keeps its name: Host and TLS SNI are the endpoint's.
 */
export class DeliveryConnections {
  /** In order of last use (an entry moves to the end when used). */
  readonly #pools = new Map<string, { pool: Pool; usedAt: number }>();
  readonly #targets = new Map<string, { origin: string; path: string }>();

  /** POSTs in flight by the signal that aborts them: one listener per signal, not one per POST. */
  readonly #inFlight = new WeakMap<AbortSignal, Set<PostHandler>>();

  /** Follows a POST in flight until `untrack`: the signal's abort aborts it. */
  track(signal: AbortSignal, post: PostHandler): void {
    let posts = this.#inFlight.get(signal);
    if (!posts) {
      const tracked = new Set<PostHandler>();
      posts = tracked;
      this.#inFlight.set(signal, tracked);
      signal.addEventListener(
        "abort",
        () => {
          this.#inFlight.delete(signal);
          for (const each of tracked) each.abort();
        },
        { once: true },
      );
    }
    posts.add(post);
  }

  /** A POST that finished. */
  untrack(signal: AbortSignal, post: PostHandler): void {
    // The entry stays while its signal lives (its one listener with it).
    this.#inFlight.get(signal)?.delete(post);
  }

  /** An endpoint URL's origin and path, parsed once. */
  target(href: string): { origin: string; path: string } {
    let target = this.#targets.get(href);
    if (!target) {
      const url = new URL(href);
      target = { origin: url.origin, path: url.pathname + url.search };
      if (this.#targets.size >= MAX_POOLS * 4) this.#targets.clear();
      this.#targets.set(href, target);
    }
    return target;
  }

  /** The pool for an origin; `addresses` pins its connections (undefined for an IP literal host). */
  pool(origin: string, addresses: readonly string[] | undefined): Pool | Promise<Pool> {
    const key = addresses ? `${origin} ${[...addresses].sort().join(" ")}` : origin;
    const entry = this.#pools.get(key);
    if (entry) {
      this.#pools.delete(key);
      this.#pools.set(key, entry);
      entry.usedAt = performance.now();
      return entry.pool;
    }
    if (!poolClass) return loadPool().then(() => this.pool(origin, addresses));
    // undici's own header and body timers (300 s) are off: the 10 s window of each POST
    // (http.ts) covers both, and they cost a timer refresh per request and per chunk.
    const timeouts = { headersTimeout: 0, bodyTimeout: 0 };
    const pool = new poolClass(
      origin,
      addresses ? { ...timeouts, connect: { lookup: pinnedLookup([...addresses]) } } : timeouts,
    );
    this.#pools.set(key, { pool, usedAt: performance.now() });
    this.#evict();
    return pool;
  }

  /** Closes every pool and its sockets (the sandbox stops). */
  async close(): Promise<void> {
    const pools = [...this.#pools.values()].map((entry) => entry.pool);
    this.#pools.clear();
    await Promise.all(pools.map((pool) => pool.destroy().catch(() => {})));
  }

  #evict(): void {
    const now = performance.now();
    for (const [key, entry] of this.#pools) {
      if (this.#pools.size <= MAX_POOLS && now - entry.usedAt < IDLE_MS) break;
      this.#pools.delete(key);
      // close() lets requests under way finish first.
      void entry.pool.close().catch(() => {});
    }
  }
}

const connections = new WeakMap<DomainContext, DeliveryConnections>();

/** The sandbox's delivery connections. */
export function connectionsOf(ctx: DomainContext): DeliveryConnections {
  let found = connections.get(ctx);
  if (!found) {
    found = new DeliveryConnections();
    connections.set(ctx, found);
  }
  return found;
}

/** Closes the keep-alive connections of a sandbox that stops, so nothing holds its process open. */
export async function closeWebhookConnections(ctx: DomainContext): Promise<void> {
  const found = connections.get(ctx);
  connections.delete(ctx);
  await found?.close();
}
