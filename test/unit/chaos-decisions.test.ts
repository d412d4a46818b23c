import { describe, expect, it } from "vitest";
import {
  CHAOS_PROFILES,
  decideDelivery,
  decideReceipt,
  decideSend,
  type ActiveChaos,
} from "../../src/domain/chaos/index.js";
import { pickInRange, seededDraw } from "../../src/lib/seeded-draw.js";

/** Chaos in force with this seed and profile, as the domain holds it. */
const chaos = (seed: string | number, profile: "mild" | "rough"): ActiveChaos => ({
  seed,
  key: String(seed),
  profile,
  rates: CHAOS_PROFILES[profile],
});

/** The identities a run of 10,000 events (or sends) gives: numbers 1 to 10,000. */
const N = 10_000;
const numbers = Array.from({ length: N }, (_, i) => i + 1);

/**
 * The documented tolerance (docs/chaos.md, "How close to the rates"): an observed rate over n
 * decisions lies within four standard deviations of the binomial, 4·√(p(1−p)/n), of the
 * profile's rate. The draws are deterministic, so this either always holds or never does.
 */
const tolerance = (p: number, n: number) => 4 * Math.sqrt((p * (1 - p)) / n);

function expectRate(observed: number, p: number, n: number, what: string) {
  expect(Math.abs(observed / n - p), `${what}: ${observed} of ${n} against ${p}`).toBeLessThanOrEqual(tolerance(p, n));
}

/** A uniform whole number from..to: its mean within four standard errors of the middle. */
function expectSpan(values: number[], [from, to]: readonly [number, number], what: string) {
  expect(Math.min(...values), what).toBeGreaterThanOrEqual(from);
  expect(Math.max(...values), what).toBeLessThanOrEqual(to);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const standardError = (to - from) / Math.sqrt(12) / Math.sqrt(values.length);
  expect(Math.abs(mean - (from + to) / 2), `${what}: mean ${mean}`).toBeLessThanOrEqual(4 * standardError);
}

describe("the rates of each profile, over 10,000 identities (docs/chaos.md)", () => {
  it.each([
    [
      "mild",
      { duplicate: 0.05, reordered: 0.05, delayed: 0.1, send_error: 0.05, number_offline: 0.01, receipt_lost: 0.02 },
    ],
    [
      "rough",
      { duplicate: 0.25, reordered: 0.2, delayed: 0.3, send_error: 0.2, number_offline: 0.05, receipt_lost: 0.1 },
    ],
  ] as const)("%s: every rate is the table's, and each draw lands within the tolerance", (profile, rates) => {
    expect(CHAOS_PROFILES[profile]).toEqual(rates);
    for (const seed of ["ci-run-1", 424242]) {
      const active = chaos(seed, profile);
      const deliveries = numbers.map((event) => decideDelivery(active, event, 1));
      expectRate(deliveries.filter((d) => d.duplicateAfterMs !== undefined).length, rates.duplicate, N, "duplicate");
      expectRate(deliveries.filter((d) => d.swap).length, rates.reordered, N, "reordered");
      expectRate(deliveries.filter((d) => d.extraWaitMs !== undefined).length, rates.delayed, N, "delayed");
      const sends = numbers.map((message) => decideSend(active, message, 0));
      expectRate(sends.filter((s) => s.sendError).length, rates.send_error, N, "send_error");
      expectRate(sends.filter((s) => s.offlineForMs !== undefined).length, rates.number_offline, N, "number_offline");
      const delivered = numbers.filter((message) => decideReceipt(active, message, "delivered")).length;
      const read = numbers.filter((message) => decideReceipt(active, message, "read")).length;
      expectRate(delivered, rates.receipt_lost, N, "receipt_lost (delivered)");
      expectRate(read, rates.receipt_lost, N, "receipt_lost (read)");
    }
  });

  it("the amounts: a copy 1-60 s later, an extra wait of 1-30 s, a number offline 1-10 min", () => {
    const active = chaos("amounts", "rough");
    const deliveries = numbers.flatMap((event) => [1, 2].map((endpoint) => decideDelivery(active, event, endpoint)));
    expectSpan(
      deliveries.flatMap((d) => d.duplicateAfterMs ?? []),
      [1_000, 60_000],
      "copy after",
    );
    expectSpan(
      deliveries.flatMap((d) => d.extraWaitMs ?? []),
      [1_000, 30_000],
      "extra wait",
    );
    const offline = numbers.flatMap((m) =>
      [0, 1].map((generation) => decideSend(active, m, generation).offlineForMs ?? []),
    );
    expectSpan(offline.flat(), [60_000, 600_000], "offline for");
  });

  it("each kind is drawn apart from the others: a delivery's three decisions are independent", () => {
    const active = chaos("independence", "rough");
    const deliveries = numbers.map((event) => decideDelivery(active, event, 1));
    const both = deliveries.filter((d) => d.swap && d.extraWaitMs !== undefined).length;
    expectRate(both, 0.2 * 0.3, N, "reordered and delayed together");
  });
});

describe("determinism: the seed and the work's identity, nothing else", () => {
  it("the same seed and identity give the same decision, whatever was drawn before or between", () => {
    const first = chaos(42, "rough");
    const forwards = numbers.slice(0, 500).map((event) => decideDelivery(first, event, 1));
    const backwards = numbers
      .slice(0, 500)
      .reverse()
      .map((event) => decideDelivery(chaos(42, "rough"), event, 1))
      .reverse();
    expect(backwards).toEqual(forwards);
  });

  it('42 and "42" are the same seed; another seed decides otherwise', () => {
    const decisions = (seed: string | number) =>
      numbers.slice(0, 500).map((n) => decideDelivery(chaos(seed, "rough"), n, 1));
    expect(decisions("42")).toEqual(decisions(42));
    expect(decisions(43)).not.toEqual(decisions(42));
  });

  it("an endpoint, a message's generation, a receipt and a group member are each part of the identity", () => {
    const active = chaos("parts", "rough");
    const by = <T>(f: (n: number) => T) => numbers.slice(0, 500).map(f);
    expect(by((n) => decideDelivery(active, n, 1))).not.toEqual(by((n) => decideDelivery(active, n, 2)));
    expect(by((n) => decideSend(active, n, 0))).not.toEqual(by((n) => decideSend(active, n, 1)));
    expect(by((n) => decideReceipt(active, n, "delivered"))).not.toEqual(by((n) => decideReceipt(active, n, "read")));
    expect(by((n) => decideReceipt(active, n, "read", "+14155550191"))).not.toEqual(
      by((n) => decideReceipt(active, n, "read", "+14155550192")),
    );
  });

  it("the draw is the first 48 bits of SHA-256 over the seed (length first) and the identity", () => {
    // A fixed value: a change to the draw would change every seed's decisions, and CI runs replay with old seeds.
    expect(seededDraw("42", "duplicate:e1:w1")).toBe(0x540b107ccbdb / 2 ** 48);
    // The seed's length keeps a seed and an identity from running into each other.
    expect(seededDraw("4", "2\nduplicate:e1:w1")).not.toBe(seededDraw("42", "duplicate:e1:w1"));
    expect(pickInRange(0, 1_000, 60_000)).toBe(1_000);
    expect(pickInRange(0.999_999_999, 1_000, 60_000)).toBe(60_000);
  });
});
