import type { IdSource } from "../../lib/ids.js";

/** A code is six digits (spec sections 2 and 8). */
const CODE_LENGTH = 6;

const BARE_CODE = /^[0-9]{6}$/;

/**
 * True for a text that is a bare six-digit code (spec 4.6): ASCII digits only. Whitespace around
 * it is not "other text" (keyboards add a trailing space); anything else is, spaces inside too.
 */
export function bareCodeOf(text: string): string | undefined {
  const trimmed = text.trim();
  return BARE_CODE.test(trimmed) ? trimmed : undefined;
}

/** Six random digits from the sandbox's id source (leading zeros allowed: `004211` is a code). */
function randomDigits(ids: IdSource): string {
  let digits = "";
  // token() draws base62 characters uniformly; keeping only its digits keeps them uniform.
  while (digits.length < CODE_LENGTH) {
    for (const char of ids.token(16)) if (char >= "0" && char <= "9" && digits.length < CODE_LENGTH) digits += char;
  }
  return digits;
}

/**
 * A new code that none of `taken` (the phone's live challenges, of every account) uses: a text
 * from the phone must name exactly one challenge.
 */
export function newCode(ids: IdSource, taken: ReadonlySet<string>): string {
  for (;;) {
    const code = randomDigits(ids);
    if (!taken.has(code)) return code;
  }
}

/** A six-digit code that is none of `taken`: what `otp text --wrong` sends. */
export function wrongCode(right: string, taken: ReadonlySet<string>): string {
  // Walk from the right code so the wrong one is stable for a given challenge (readable in tests).
  for (let step = 1; ; step++) {
    const code = String((Number(right) + step * 111_111) % 1_000_000).padStart(CODE_LENGTH, "0");
    if (code !== right && !taken.has(code)) return code;
  }
}
