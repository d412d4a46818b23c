import { describe, expect, it } from "vitest";
import { isValidReaction } from "../../src/domain/messages/index.js";

describe("reactions (spec 4.3): a named tapback or exactly one emoji", () => {
  it.each([
    "love",
    "like",
    "dislike",
    "laugh",
    "emphasize",
    "question",
    "👍",
    "❤️",
    "👍🏿",
    "👩‍💻",
    "👨‍👩‍👧‍👦",
    "🇯🇵",
    "#️⃣",
    "🏳️‍🌈",
  ])("accepts %s", (value) => {
    expect(isValidReaction(value)).toBe(true);
  });

  it.each(["", "Love", "heart", "👍👍", "👍 ", " ", "a", "1", "♥x", "🇯🇵🇫🇷"])("refuses %j", (value) => {
    expect(isValidReaction(value)).toBe(false);
  });
});
