import { describe, expect, it } from "vitest";
import { graphemeCount } from "../../src/lib/graphemes.js";

describe("graphemeCount: characters as people see them (group titles, reactions)", () => {
  it("counts a joined emoji, a flag, a keycap and a combining accent as one each", () => {
    expect(graphemeCount("👨‍👩‍👧‍👦")).toBe(1);
    expect(graphemeCount("🇫🇷")).toBe(1);
    expect(graphemeCount("1\uFE0F\u20E3")).toBe(1);
    expect(graphemeCount("e\u0301")).toBe(1);
  });

  it("counts plain text by letter, and the empty string as zero", () => {
    expect(graphemeCount("abc")).toBe(3);
    expect(graphemeCount("")).toBe(0);
  });
});
