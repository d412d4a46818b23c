import { EMOJI_PATTERN, NAMED_REACTIONS, REACTION_RULE } from "../../contract/reactions.js";
import { invalidRequest } from "../../lib/app-error.js";
import { INPUT_LIMITS } from "../../lib/bounded-input.js";
import { graphemeCount } from "../../lib/graphemes.js";

// A pictograph, a flag (regional indicator pair) or a keycap (digit + U+20E3).
const EMOJI = new RegExp(EMOJI_PATTERN, "u");

/** True for a named reaction or exactly one emoji (one grapheme cluster that is an emoji). */
export function isValidReaction(value: string): boolean {
  if ((NAMED_REACTIONS as readonly string[]).includes(value)) return true;
  // Segmenting costs far more than linear time and memory: never segment more than one emoji's worth.
  if (value.length > INPUT_LIMITS.reaction) return false;
  return graphemeCount(value) === 1 && EMOJI.test(value);
}

/** Throws 400 invalid_request naming `field` unless the value is a valid reaction (spec 4.3). */
export function requireReaction(value: string, field = "reaction"): void {
  if (!isValidReaction(value)) throw invalidRequest(`${field}: ${REACTION_RULE}`);
}
