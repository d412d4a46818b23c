import type { Prng } from "./prng.js";

/** Lengths at and just past the sandbox's limits (docs/spec-decisions.md, "Input limits"), and huge ones. */
const LENGTHS = [
  0, 1, 36, 37, 40, 41, 64, 65, 100, 101, 200, 201, 254, 255, 256, 2_048, 2_049, 20_000, 20_001, 100_000, 600_000,
];

/** Repeated units that stress what parses strings: segmenters, phone and email parsers, regexes. */
const UNITS = [
  "x",
  "7",
  "👍",
  "👨‍👩‍👧‍👦",
  "🇯🇵",
  "\u0301", // combining mark: one endless grapheme after an emoji
  "a@",
  "a@b.",
  "+1415",
  "1h",
  "9",
  "%ff",
  "\u0000",
  "\u202e",
  "\ud800", // a lone surrogate
  " ",
  "\\",
  '"',
  "<script>",
  "'; DROP TABLE messages; --",
];

/** A string of a boundary or huge length made of one hostile unit (prefixed sometimes by a valid value). */
export function hostileString(rng: Prng, valid?: string): string {
  const length = rng.pick(LENGTHS);
  const unit = rng.pick(UNITS);
  const prefix = valid !== undefined && rng.chance(0.3) ? valid : rng.chance(0.2) ? "😀" : "";
  return (prefix + unit.repeat(Math.ceil(length / unit.length))).slice(0, Math.max(length, prefix.length));
}

const NUMBERS = [0, -1, 1, 1.5, -0.0001, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308, 5e-324];

/** Nesting of `depth` levels around a value, as arrays or objects. */
export function nested(rng: Prng, depth: number, inner: unknown = 1): unknown {
  let value = inner;
  const asObject = rng.chance(0.5);
  for (let i = 0; i < depth; i++) value = asObject ? { a: value } : [value];
  return value;
}

/** Any hostile JSON value: a hostile string, an edge number, a wrong type, a big or deep container. */
export function hostileValue(rng: Prng, original?: unknown): unknown {
  // Only a small valid value is reused (copied 10,000 times, a huge one would exhaust the fuzzer).
  const valid = JSON.stringify(original ?? null).length <= 256 ? original : undefined;
  return rng.weighted<() => unknown>([
    [40, () => hostileString(rng, typeof valid === "string" ? valid : undefined)],
    [10, () => rng.pick(NUMBERS)],
    [5, () => rng.pick([true, false, null])],
    [5, () => []],
    [5, () => ({})],
    [
      8,
      () =>
        Array.from({ length: rng.pick([11, 100, 10_000]) }, (_, i) =>
          rng.chance(0.5) ? i : typeof valid === "string" ? valid : "x",
        ),
    ],
    [5, () => Object.fromEntries(Array.from({ length: rng.pick([50, 5_000]) }, (_, i) => [`k${i}`, i]))],
    [5, () => ({ [hostileString(rng)]: 1 })],
    [7, () => nested(rng, rng.pick([5, 31, 33, 100, 2_000]))],
    [5, () => (Array.isArray(valid) ? [...valid, ...valid, hostileString(rng)] : [valid, hostileString(rng)])],
    [5, () => valid],
  ])();
}

/** JSON text that breaks in one of the ways parsers care about. */
export function brokenJson(rng: Prng): string {
  return rng.pick([
    "{",
    "{nope",
    '{"a":}',
    '{"a":1,}',
    "[1,2,",
    '{"a":"\\ud800"}',
    '{"a":"\\x41"}',
    `{"a":"${"\\".repeat(3)}"}`,
    "\u0000",
    "\ufeff{}",
    "NaN",
    "{'a':1}",
    `${"[".repeat(1_000_000)}`,
    `${'{"a":'.repeat(200_000)}1${"}".repeat(200_000)}`,
    '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
    `{"a":1}${"x".repeat(100)}`,
  ]);
}
