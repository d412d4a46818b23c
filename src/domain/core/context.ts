import type { Clock } from "../../lib/clock.js";
import type { IdSource } from "../../lib/ids.js";
import { createMemoryBlobStore, type BlobStore } from "../../store/attachments/index.js";
import type { Db } from "../../store/engine/index.js";
import { createBus, type DomainBus } from "./bus.js";
import type { EmittedEvent } from "./events.js";
import type { Settings } from "./settings.js";

/** Work done inside the emitting transaction for every event: webhook fan-out is one. */
export type EventFanOut = (ctx: DomainContext, event: EmittedEvent) => void;

/** Everything a domain rule may use. Time, ids and the database come only from here. */
export interface DomainContext {
  readonly db: Db;
  readonly clock: Clock;
  /** Real wall-clock time, for the few things that follow it in manual mode too (signature `t`). */
  readonly wallNow: () => number;
  readonly ids: IdSource;
  readonly settings: Settings;
  /** Where committed events, jobs and delivery attempts are announced to live listeners. */
  readonly bus: DomainBus;
  /** Run inside every event's transaction (the modules' fan-outs). */
  readonly fanOuts: readonly EventFanOut[];
  /** A fetch for webhook deliveries, injected by tests; without one they go over kept-alive connections. */
  readonly fetch: typeof fetch | undefined;
  /** Resolves a host name to addresses (webhook URL checks); injectable for tests. */
  readonly resolveHost: (host: string) => Promise<string[]>;
  /** Per-sandbox caches that a reset must clear. */
  readonly caches: Map<string, Map<unknown, unknown>>;
  /** The bytes of attachments, by hash (the database keeps their metadata). */
  readonly blobs: BlobStore;
  /** Where the hosts are reached: signed attachment URLs start with `urls.messaging`. Set once listening. */
  readonly urls: HostUrls;
}

/** The base URLs of the hosts, as the ready line shows them. */
export interface HostUrls {
  messaging: string;
  otp: string;
}

/** What a context is built from. */
export interface ContextOptions {
  db: Db;
  clock: Clock;
  ids: IdSource;
  settings: Settings;
  resolveHost: (host: string) => Promise<string[]>;
  bus?: DomainBus;
  fanOuts?: readonly EventFanOut[];
  wallNow?: () => number;
  fetch?: typeof fetch;
  blobs?: BlobStore;
}

/** Builds the domain context over an open database and a clock. */
export function createContext(options: ContextOptions): DomainContext {
  const { db, clock } = options;
  return {
    db,
    clock,
    wallNow: options.wallNow ?? Date.now,
    ids: options.ids,
    settings: options.settings,
    bus: options.bus ?? createBus(),
    fanOuts: options.fanOuts ?? [],
    fetch: options.fetch,
    resolveHost: options.resolveHost,
    caches: new Map(),
    blobs: options.blobs ?? createMemoryBlobStore(),
    urls: { messaging: "http://messaging.invalid", otp: "http://otp.invalid" },
  };
}

/** A named cache that `resetCaches` empties (e.g. the key → account cache). */
export function cacheOf<K, V>(ctx: DomainContext, name: string): Map<K, V> {
  let cache = ctx.caches.get(name);
  if (!cache) {
    cache = new Map();
    ctx.caches.set(name, cache);
  }
  return cache as Map<K, V>;
}

/** Empties every cache (after a reset). */
export function resetCaches(ctx: DomainContext): void {
  for (const cache of ctx.caches.values()) cache.clear();
}
