import type { Clock } from "../../lib/clock.js";
import type { IdSource } from "../../lib/ids.js";
import { createMemoryBlobStore, type BlobStore } from "../../store/attachments/index.js";
import type { Db } from "../../store/engine/index.js";
import { createBus, type DomainBus } from "./bus.js";
import type { EmittedEvent } from "./events.js";
import { readSettingsPatch, settingsFrom, type Settings } from "./settings.js";

/** Work done inside the emitting transaction for every event: webhook fan-out is one. */
export type EventFanOut = (ctx: DomainContext, event: EmittedEvent) => void;

/** Everything a domain rule may use. Time, ids and the database come only from here. */
export interface DomainContext {
  readonly db: Db;
  readonly clock: Clock;
  /** Real wall-clock time, for the few things that follow it in manual mode too (signature `t`). */
  readonly wallNow: () => number;
  readonly ids: IdSource;
  /**
   * The settings in force: read from the database once and kept until changed, or until a reset or
   * a restore replaced the database (they empty the caches).
   */
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
  const caches = new Map<string, Map<unknown, unknown>>();
  return {
    db,
    clock,
    wallNow: options.wallNow ?? Date.now,
    ids: options.ids,
    get settings() {
      const cache = cacheIn<typeof SETTINGS_CACHE, Settings>(caches, SETTINGS_CACHE);
      let settings = cache.get(SETTINGS_CACHE);
      if (!settings) {
        settings = Object.freeze(settingsFrom(readSettingsPatch(db)));
        cache.set(SETTINGS_CACHE, settings);
      }
      return settings;
    },
    bus: options.bus ?? createBus(),
    fanOuts: options.fanOuts ?? [],
    fetch: options.fetch,
    resolveHost: options.resolveHost,
    caches,
    blobs: options.blobs ?? createMemoryBlobStore(),
    urls: { messaging: "http://messaging.invalid", otp: "http://otp.invalid" },
  };
}

/** The cache holding the settings in force (`forgetSettings` empties it). */
const SETTINGS_CACHE = "settings";

function cacheIn<K, V>(caches: Map<string, Map<unknown, unknown>>, name: string): Map<K, V> {
  let cache = caches.get(name);
  if (!cache) {
    cache = new Map();
    caches.set(name, cache);
  }
  return cache as Map<K, V>;
}

/** A named cache that `resetCaches` empties (e.g. the key → account cache). */
export function cacheOf<K, V>(ctx: DomainContext, name: string): Map<K, V> {
  return cacheIn(ctx.caches, name);
}

/** Makes the next read of `ctx.settings` read the database again (after the settings were written). */
export function forgetSettings(ctx: DomainContext): void {
  ctx.caches.get(SETTINGS_CACHE)?.clear();
}

/** Empties every cache (after a reset). */
export function resetCaches(ctx: DomainContext): void {
  for (const cache of ctx.caches.values()) cache.clear();
}
