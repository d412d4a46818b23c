/** One place where a JSON value differs from the subset expected of it. */
export interface Mismatch {
  /** Where, as `a.b[2].c` (empty for the value itself). */
  path: string;
  expected: unknown;
  /** What is there (undefined: nothing). */
  seen: unknown;
}

const join = (path: string, key: string | number) =>
  typeof key === "number" ? `${path}[${key}]` : path ? `${path}.${key}` : key;

/**
 * Where `actual` fails to contain `expected`, as a JSON subset: every field of an expected object
 * must be in the actual one and match (extra fields are fine); an expected array matches an array
 * of the same length item by item; anything else must be equal. Empty when it holds.
 */
export function subsetMismatches(expected: unknown, actual: unknown, path = ""): Mismatch[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return [{ path, expected, seen: actual }];
    return expected.flatMap((item, i) => subsetMismatches(item, actual[i], join(path, i)));
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual))
      return [{ path, expected, seen: actual }];
    return Object.entries(expected).flatMap(([key, value]) =>
      subsetMismatches(value, (actual as Record<string, unknown>)[key], join(path, key)),
    );
  }
  return Object.is(expected, actual) ? [] : [{ path, expected, seen: actual }];
}

/** A mismatch in words: `message_id: expected "a", seen "b"`. */
export function describeMismatch(mismatch: Mismatch): string {
  const seen = mismatch.seen === undefined ? "nothing" : JSON.stringify(mismatch.seen);
  return `${mismatch.path || "the value"}: expected ${JSON.stringify(mismatch.expected)}, seen ${seen}`;
}
