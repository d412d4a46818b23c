import { describe, expect, it } from "vitest";
import { normalizeMediaType } from "../../src/lib/media-type.js";

describe("normalizeMediaType (RFC 9110 section 8.3.1)", () => {
  it("lower-cases the type and parameter names, keeps values, joins with '; '", () => {
    expect(normalizeMediaType(" Text/HTML ;Charset=UTF-8 ")).toEqual({
      essence: "text/html",
      full: "text/html; charset=UTF-8",
    });
    expect(normalizeMediaType("image/png")).toEqual({ essence: "image/png", full: "image/png" });
  });

  it("keeps a semicolon inside a quoted value", () => {
    expect(normalizeMediaType('multipart/mixed; boundary="a;b"; x=1')?.full).toBe(
      'multipart/mixed; boundary="a;b"; x=1',
    );
  });

  it.each([
    "png",
    "image/",
    "/png",
    "image/png;",
    "image/png; charset",
    "image/png; =x",
    "image png",
    'text/plain; a="open',
  ])("refuses %j", (input) => {
    expect(normalizeMediaType(input)).toBeUndefined();
  });
});
