import { CHAOS_PROFILES, type ActiveChaos } from "../../src/domain/chaos/index.js";

/** The mild profile's rates as docs/chaos.md lists them (literal: the contract, not the source's table). */
export const MILD_RATES = {
  duplicate: 0.05,
  reordered: 0.05,
  delayed: 0.1,
  send_error: 0.05,
  number_offline: 0.01,
  receipt_lost: 0.02,
};

/** The rough profile's rates as docs/chaos.md lists them. */
export const ROUGH_RATES = {
  duplicate: 0.25,
  reordered: 0.2,
  delayed: 0.3,
  send_error: 0.2,
  number_offline: 0.05,
  receipt_lost: 0.1,
};

/** Chaos in force with this seed and profile, as the domain holds it (to ask the pure decisions). */
export const chaosOf = (seed: string | number, profile: "mild" | "rough" = "rough"): ActiveChaos => ({
  seed,
  key: String(seed),
  profile,
  rates: CHAOS_PROFILES[profile],
});

/**
 * The first seed (`t0`, `t1`, …) under which chaos decides as `wanted` says, found by asking the
 * pure decision functions: tests pick the chaos they need instead of hoping for it.
 */
export function seedWhere(wanted: (chaos: ActiveChaos) => boolean, profile: "mild" | "rough" = "rough"): string {
  for (let i = 0; i < 100_000; i++) {
    const seed = `t${i}`;
    if (wanted(chaosOf(seed, profile))) return seed;
  }
  throw new Error("no seed found");
}

/** Replaces ids and timestamps by placeholders in order of appearance: two runs' texts compare equal. */
export function withoutIdsAndTimes(text: string): string {
  const seen = new Map<string, string>();
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, (id) => {
      if (!seen.has(id)) seen.set(id, `id${seen.size + 1}`);
      return seen.get(id) as string;
    })
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, "T");
}
