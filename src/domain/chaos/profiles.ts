import type { ChaosProfileName, ChaosRates } from "../../contract/index.js";

/**
 * The chaos profiles and their rates, per decision (docs/chaos.md, "Profiles"): each delivery of
 * an event to an endpoint is decided on for a copy, a swap and an extra wait; each send for a
 * number going offline and a transient error; each receipt for being lost.
 */
export const CHAOS_PROFILES: Readonly<Record<ChaosProfileName, Readonly<ChaosRates>>> = Object.freeze({
  mild: Object.freeze({
    duplicate: 0.05,
    reordered: 0.05,
    delayed: 0.1,
    send_error: 0.05,
    number_offline: 0.01,
    receipt_lost: 0.02,
  }),
  rough: Object.freeze({
    duplicate: 0.25,
    reordered: 0.2,
    delayed: 0.3,
    send_error: 0.2,
    number_offline: 0.05,
    receipt_lost: 0.1,
  }),
});

/** How much, in the clock's milliseconds, each kind of chaos that takes time takes: from, to (both included). */
export const CHAOS_SPANS = Object.freeze({
  /** A copy of an event goes 1-60 s after it. */
  duplicateAfterMs: Object.freeze([1_000, 60_000] as const),
  /** A first attempt waits an extra 1-30 s. */
  extraWaitMs: Object.freeze([1_000, 30_000] as const),
  /** A number goes offline for 1-10 min before a send. */
  offlineForMs: Object.freeze([60_000, 600_000] as const),
});

/**
 * The longest a first attempt drawn to swap waits for the next event to its endpoint: when none
 * comes, it goes alone (a delay, not a swap). Together with the longest extra wait, no first
 * attempt is held back more than 60 s by chaos.
 */
export const SWAP_WAIT_MS = 30_000;
