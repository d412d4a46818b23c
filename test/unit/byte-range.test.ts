import { describe, expect, it } from "vitest";
import { parseByteRange } from "../../src/server/byte-range.js";

describe("Range headers (RFC 9110 section 14) for a 1000-byte file", () => {
  it.each([
    ["bytes=0-0", { start: 0, end: 0 }],
    ["bytes=0-999", { start: 0, end: 999 }],
    ["bytes=10-", { start: 10, end: 999 }],
    ["bytes=990-2000", { start: 990, end: 999 }],
    ["bytes=-1", { start: 999, end: 999 }],
    ["bytes=-5000", { start: 0, end: 999 }],
    [`bytes=-${"9".repeat(20)}`, { start: 0, end: 999 }],
    [`bytes=10-${"9".repeat(20)}`, { start: 10, end: 999 }],
  ])("%s → %j", (header, range) => {
    expect(parseByteRange(header, 1_000)).toEqual(range);
  });

  it.each(["bytes=1000-", "bytes=1000-1001", "bytes=-0", `bytes=${"9".repeat(20)}-`])(
    "%s is unsatisfiable (416)",
    (header) => {
      expect(parseByteRange(header, 1_000)).toBe("unsatisfiable");
    },
  );

  it.each([
    null,
    "",
    "bytes=",
    "bytes=-",
    "items=0-1",
    "bytes=5-2",
    "bytes=0-1,3-4",
    "bytes=abc",
    `bytes=0-${"9".repeat(40)}`,
  ])("%j is ignored: the whole file is sent", (header) => {
    expect(parseByteRange(header, 1_000)).toBeUndefined();
  });
});
