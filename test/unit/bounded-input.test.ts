import { describe, expect, it } from "vitest";
import { isValidReaction } from "../../src/domain/messages/index.js";
import { assertBoundedJson, characterCount, clip, INPUT_LIMITS, nestsDeeperThan } from "../../src/lib/bounded-input.js";
import { parseDuration } from "../../src/lib/duration.js";
import { parseHandleMemo } from "../../src/lib/handle-memo.js";
import { parseHandle } from "../../src/lib/handles.js";

const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

describe("characters are counted as code points", () => {
  it("a surrogate pair is one character, a lone half is one too", () => {
    expect(characterCount("")).toBe(0);
    expect(characterCount("abc")).toBe(3);
    expect(characterCount("😀😀")).toBe(2);
    expect(characterCount("👍🏽")).toBe(2);
    expect(characterCount("\ud83d")).toBe(1);
    expect(characterCount("a\ude00\ud83d")).toBe(3);
  });
});

describe("JSON bodies: nesting and string lengths are bounded before any rule runs", () => {
  it("nesting deeper than 32 levels is caught on the text, brackets inside strings aside", () => {
    expect(nestsDeeperThan(nested(32), 32)).toBe(false);
    expect(nestsDeeperThan(nested(33), 32)).toBe(true);
    expect(nestsDeeperThan(JSON.stringify({ a: "[".repeat(100), b: '\\"[[[' }), 2)).toBe(false);
    expect(nestsDeeperThan(`{"a":${nested(1_000_000)}}`, 32)).toBe(true);
  });

  it("a string longer than the longest field (20,000 characters) is refused, naming where it is", () => {
    expect(() => assertBoundedJson({ text: "x".repeat(INPUT_LIMITS.jsonString) })).not.toThrow();
    expect(() => assertBoundedJson({ a: [{ b: "ok" }, "x".repeat(INPUT_LIMITS.jsonString + 1)] })).toThrow(
      /^a\[1\]: longer than 20000 characters/,
    );
    expect(() => assertBoundedJson("x".repeat(INPUT_LIMITS.jsonString + 1))).toThrow(/^body: longer/);
    // Characters are code points: 20,000 emoji (40,000 UTF-16 units) are 20,000 characters.
    expect(() => assertBoundedJson({ text: "😀".repeat(20_000) })).not.toThrow();
    expect(() => assertBoundedJson({ text: `${"😀".repeat(20_000)}x` })).toThrow(/^text: longer than 20000 characters/);
  });

  it("a field name longer than 100 characters is refused without being echoed in full", () => {
    let message = "";
    try {
      assertBoundedJson({ ["k".repeat(5_000)]: 1 });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/field name longer than 100 characters/);
    expect(message.length).toBeLessThan(150);
  });

  it("clip shortens what an error message echoes", () => {
    expect(clip("short")).toBe("short");
    expect(clip("x".repeat(10_000))).toBe(`${"x".repeat(60)}… (10000 characters)`);
  });
});

describe("costly parsing is bounded by length first", () => {
  it("a reaction is never segmented past one emoji's worth: one grapheme of 65 code units is refused", () => {
    // An emoji with 64 combining marks is a single grapheme cluster: without the bound it passes.
    const oneLongGrapheme = `😀${"\u0301".repeat(64)}`;
    expect(isValidReaction(oneLongGrapheme)).toBe(false);
    expect(isValidReaction(`😀${"\u0301".repeat(10)}`)).toBe(true);
    expect(isValidReaction("👍".repeat(300_000))).toBe(false);
  });

  it("a handle longer than 254 characters is not parsed, even when it looks like an email", () => {
    const longEmail = `${"a".repeat(250)}@example.com`;
    expect(parseHandle(longEmail)).toBeUndefined();
    expect(parseHandleMemo(longEmail)).toBeUndefined();
    expect(parseHandle(`${"a".repeat(200)}@example.com`)).toEqual({
      kind: "email",
      value: `${"a".repeat(200)}@example.com`,
    });
  });

  it("a duration longer than 64 characters is refused before it is read", () => {
    expect(parseDuration("1s".repeat(32))).toBe(32_000);
    expect(() => parseDuration("1s".repeat(33))).toThrow(/at most 64 characters/);
  });
});
