import { describe, expect, it } from "vitest";
import { formatDuration, parseDuration } from "../../src/lib/duration.js";

describe("duration grammar (docs/control-api.md)", () => {
  it.each([
    ["500ms", 500],
    ["90s", 90_000],
    ["10m", 600_000],
    ["24h", 86_400_000],
    ["1h30m", 5_400_000],
    ["2d", 172_800_000],
    ["1.5s", 1_500],
    ["250", 250],
  ])("reads %s as %i ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(["", "1x", "h", "1h 30m", "-5s", "1h30", "ms"])("rejects %j with invalid_request", (text) => {
    expect(() => parseDuration(text)).toThrow(expect.objectContaining({ code: "invalid_request", status: 400 }));
  });

  it("formats durations back in the same grammar", () => {
    expect(formatDuration(5_400_000)).toBe("1h30m");
    expect(formatDuration(1_250)).toBe("1s250ms");
    expect(parseDuration(formatDuration(93_784_005))).toBe(93_784_005);
  });
});
