import { z } from "zod";
import { INPUT_LIMITS } from "../lib/bounded-input.js";

/** The named reactions (tapbacks) of spec 4.3. */
export const NAMED_REACTIONS = ["love", "like", "dislike", "laugh", "emphasize", "question"] as const;

/** What a reaction that is neither is told. */
export const REACTION_RULE = `must be one of ${NAMED_REACTIONS.join(", ")} or a single emoji`;

/** What makes a grapheme cluster an emoji: a pictograph, a flag (regional indicators) or a keycap (U+20E3). */
export const EMOJI_PATTERN = "\\p{Extended_Pictographic}|\\p{Regional_Indicator}|\\u20E3";

/**
 * A reaction as the OpenAPI documents state it: a named one, or one emoji. JSON Schema cannot
 * count grapheme clusters, so "exactly one" is said in words; the pattern is the server's.
 */
const reactionRule = {
  anyOf: [
    // Each branch typed too: a generator reading one without a type makes the field `unknown`.
    { type: "string", enum: [...NAMED_REACTIONS], description: "a named reaction (tapback)" },
    { type: "string", pattern: EMOJI_PATTERN, description: "exactly one emoji (one grapheme cluster)" },
  ],
};

/** A reaction in a request body: bounded here, checked in full by the domain (`requireReaction`). */
export const reactionInput = z.string().max(INPUT_LIMITS.reaction, REACTION_RULE).meta(reactionRule);

/** A reaction in an answer or an event's payload. */
export const reactionOutput = z.string().meta(reactionRule);
