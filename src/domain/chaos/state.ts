import {
  chaosBody,
  type ChaosInput,
  type ChaosProfileName,
  type ChaosRates,
  type ChaosStatus,
} from "../../contract/index.js";
import { parseInput } from "../../lib/validation.js";
import { readChaosState, writeChaosState } from "../../store/chaos/index.js";
import { cacheOf, type DomainContext } from "../core/index.js";
import { CHAOS_PROFILES } from "./profiles.js";

/** Chaos in force: its seed as given, the text every draw is keyed by, and the profile's rates. */
export interface ActiveChaos {
  readonly seed: string | number;
  /** The seed as text: 42 and "42" draw alike. */
  readonly key: string;
  readonly profile: ChaosProfileName;
  readonly rates: Readonly<ChaosRates>;
}

const CACHE = "chaos";

function toActive(seed: string | number, profile: ChaosProfileName): ActiveChaos {
  return { seed, key: String(seed), profile, rates: CHAOS_PROFILES[profile] };
}

function load(ctx: DomainContext): ActiveChaos | null {
  const row = readChaosState(ctx.db);
  return row ? toActive(JSON.parse(row.seed) as string | number, row.profile as ChaosProfileName) : null;
}

/**
 * The chaos in force, or undefined while it is off. Read from the database once, then from
 * memory: every event and every send asks, and while chaos is off that costs no statement.
 */
export function activeChaos(ctx: DomainContext): ActiveChaos | undefined {
  const cache = cacheOf<string, ActiveChaos | null>(ctx, CACHE);
  let found = cache.get(CACHE);
  if (found === undefined) {
    found = load(ctx);
    cache.set(CACHE, found);
  }
  return found ?? undefined;
}

/** The chaos in force as the control API shows it. */
export function chaosStatus(ctx: DomainContext): ChaosStatus {
  const chaos = activeChaos(ctx);
  return chaos
    ? { enabled: true, seed: chaos.seed, profile: chaos.profile, rates: { ...chaos.rates } }
    : { enabled: false, seed: null, profile: null, rates: null };
}

/**
 * Switches chaos on (PUT /sandbox/v1/chaos, `serve --chaos`, `startSandbox({ chaos })`). The same
 * seed and profile as the chaos in force change nothing; another seed or profile starts afresh:
 * the numbering of events and messages starts again at 1. 400 naming the field for a bad seed
 * or profile.
 */
export function switchChaosOn(ctx: DomainContext, input: unknown): ChaosStatus {
  const { seed, profile } = parseInput(chaosBody, input);
  const current = activeChaos(ctx);
  if (current && String(current.seed) === String(seed) && current.profile === profile) return chaosStatus(ctx);
  ctx.db.transaction(() => writeChaosState(ctx.db, { seed: JSON.stringify(seed), profile, since: ctx.clock.now() }));
  cacheOf<string, ActiveChaos | null>(ctx, CACHE).set(CACHE, toActive(seed, profile));
  return chaosStatus(ctx);
}

/** Switches chaos off: no decision is made from now on (what it held back is the caller's to let go). */
export function switchChaosOff(ctx: DomainContext): void {
  ctx.db.transaction(() => writeChaosState(ctx.db, undefined));
  cacheOf<string, ActiveChaos | null>(ctx, CACHE).set(CACHE, null);
}

/** The seed and profile in force, to switch the same chaos on again after a reset wiped it. */
export function chaosInput(ctx: DomainContext): ChaosInput | undefined {
  const chaos = activeChaos(ctx);
  return chaos && { seed: chaos.seed, profile: chaos.profile };
}
