import { CHAOS_PROFILE_NAMES, type ChaosProfileName } from "../contract/chaos-names.js";
import { DEFAULT_CHAOS_PROFILE } from "./defaults.js";
import { UsageError } from "./usage-error.js";

/** The longest seed the sandbox takes, in characters. */
const MAX_SEED_LENGTH = 200;

/**
 * A seed as typed on the command line: a whole number written plainly (`42`, not `042` or `4.0`)
 * is sent as a number, anything else as text. 42 and "42" are the same seed to the sandbox, so
 * this only decides how `chaos status` shows it back; `007` stays text and stays its own seed.
 */
export function seedOf(text: string): string | number {
  const number = Number(text);
  return /^-?\d+$/.test(text) && Number.isSafeInteger(number) && String(number) === text ? number : text;
}

/**
 * `serve --chaos SEED[:PROFILE]`: the text after the last colon is the profile (`mild` or
 * `rough`); without a colon the profile is `mild`. A seed that holds a colon itself is written
 * with its profile (`--chaos build:1234:mild`), so a mistyped profile is an error, never part of
 * a seed.
 */
export function parseChaosFlag(value: string): { seed: string | number; profile: ChaosProfileName } {
  const colon = value.lastIndexOf(":");
  const seedText = colon === -1 ? value : value.slice(0, colon);
  const profileText = colon === -1 ? DEFAULT_CHAOS_PROFILE : value.slice(colon + 1);
  if (!(CHAOS_PROFILE_NAMES as readonly string[]).includes(profileText)) {
    throw new UsageError(
      `--chaos: unknown profile "${profileText}" (mild or rough); write SEED or SEED:PROFILE, and a seed with a colon with its profile, e.g. build:1234:mild`,
    );
  }
  if (seedText.length === 0)
    throw new UsageError("--chaos: the seed is empty; write SEED or SEED:PROFILE, e.g. 42:rough");
  if (seedText.length > MAX_SEED_LENGTH) {
    throw new UsageError(`--chaos: the seed is ${seedText.length} characters long; at most ${MAX_SEED_LENGTH}`);
  }
  return { seed: seedOf(seedText), profile: profileText as ChaosProfileName };
}
