import { invalidRequest } from "./app-error.js";

/**
 * Length limits checked before any costly work on client input (grapheme segmentation, phone
 * parsing, regular expressions, URL parsing, JSON nesting): the cost of a request stays linear in
 * its size and small. docs/spec-decisions.md, "Input limits", lists them with the HTTP ones.
 */
export const INPUT_LIMITS = {
  /** Levels of nesting in a JSON body; no request of the API needs more than four. */
  jsonDepth: 32,
  /** Characters in any string of a JSON body: the longest field (a message's `text`) takes 20,000. */
  jsonString: 20_000,
  /** Characters in a JSON object key: keys are field names. */
  jsonKey: 100,
  /** A handle: an iMessage email address at most (RFC 5321's 254); phone numbers stop at `phone`. */
  handle: 254,
  /** A phone number in any format libphonenumber-js is asked to read. */
  phone: 40,
  /** A reaction: a named one or one emoji; the longest emoji ZWJ sequences are about 15 code units. */
  reaction: 64,
  /** A duration such as `1h30m`. */
  duration: 64,
} as const;

/** The latest instant the clock may reach: timestamps keep their 4-digit ISO 8601 year. */
export const MAX_CLOCK_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Characters (Unicode code points) in a string: a surrogate pair is one, as JSON Schema counts. */
export function characterCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** Whether a string has at most `max` characters; counted only when its UTF-16 length is over. */
export const atMostCharacters = (text: string, max: number): boolean =>
  text.length <= max || characterCount(text) <= max;

/** Input shown inside an error message, cut short: an error never echoes a huge value back. */
export function clip(value: string, max = 60): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters)`;
}

/**
 * True when JSON text nests deeper than `limit`. A linear scan before parsing, so that a body of
 * a million brackets costs a millisecond instead of a deep parse and a stack overflow later.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

const pathOf = (path: string, key: string | number) =>
  typeof key === "number" ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`;

/** With the u flag, a surrogate matches only when it is not half of a pair. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * Checks a parsed JSON body against the generic limits (string and key lengths, whole characters;
 * depth was checked on the text): 400 invalid_request naming the first offending field. Every
 * route gets this before its own rules, so no rule ever sees a string longer than the longest field.
 */
export function assertBoundedJson(value: unknown, path = ""): void {
  if (typeof value === "string") {
    if (!atMostCharacters(value, INPUT_LIMITS.jsonString)) {
      throw invalidRequest(
        `${path || "body"}: longer than ${INPUT_LIMITS.jsonString} characters (no field takes more)`,
      );
    }
    // JSON's \ud800 escapes can spell half a character, which UTF-8 (and so SQLite) cannot store:
    // it would come back as U+FFFD, a text changed with no edit.
    if (LONE_SURROGATE.test(value))
      throw invalidRequest(`${path || "body"}: is not valid Unicode (a \\u escape of half a surrogate pair)`);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => assertBoundedJson(item, pathOf(path, i)));
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key.length > INPUT_LIMITS.jsonKey) {
        throw invalidRequest(
          `${path || "body"}: has a field name longer than ${INPUT_LIMITS.jsonKey} characters ("${clip(key, 20)}")`,
        );
      }
      if (LONE_SURROGATE.test(key))
        throw invalidRequest(`${path || "body"}: has a field name that is not valid Unicode`);
      assertBoundedJson(item, pathOf(path, key));
    }
  }
}
