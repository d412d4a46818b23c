import type { z } from "zod";
import { invalidRequest } from "./app-error.js";

/** A JSON value's kind, as an error message names it: "null", "an array", "a string". */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}

/** A JSON type zod expects, with its article. */
const withArticle = (expected: string) => (/^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`);

/**
 * Plain words for zod's generic complaints ("Invalid input: expected string, received
 * undefined"): a missing field is `required`, a wrong type `must be a string, not null`, a value
 * outside an enum lists the values, a bound says it ("must be at least 1"). Messages a schema
 * gives itself take precedence over these.
 */
export const plainIssues: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === "invalid_type")
    return issue.input === undefined
      ? "required"
      : `must be ${withArticle(issue.expected)}, not ${kindOf(issue.input)}`;
  if (issue.code === "too_small" || issue.code === "too_big") return boundWords(issue);
  if (issue.code === "invalid_value") {
    const values = issue.values.map((value) => JSON.stringify(value));
    return values.length === 1 ? `must be ${values[0]}` : `must be one of ${values.join(", ")}`;
  }
  return undefined;
};

/** "must be at least 1", "must not be empty", "must have at most 10 items", by what is bounded. */
function boundWords(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig>): string {
  const small = issue.code === "too_small";
  const bound = Number(small ? (issue as z.core.$ZodIssueTooSmall).minimum : (issue as z.core.$ZodIssueTooBig).maximum);
  const exact = issue.inclusive !== false;
  const side = small ? (exact ? "at least" : "more than") : exact ? "at most" : "less than";
  if (issue.origin === "string")
    return small && bound === 1 && exact ? "must not be empty" : `must be ${side} ${bound} characters`;
  if (issue.origin === "array" || issue.origin === "set")
    return small && bound === 1 && exact ? "must not be empty" : `must have ${side} ${bound} items`;
  return `must be ${side} ${bound}`;
}

/**
 * Validates input against a zod schema; on failure throws 400 invalid_request whose message
 * names the first offending field.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where = "body"): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  // Parsed again for the words: any per-call option takes zod off its fast path (3 µs a parse).
  const issue = schema.safeParse(input, { error: plainIssues }).error?.issues[0];
  const path = issue?.path.length ? issue.path.join(".") : where;
  throw invalidRequest(`${path}: ${issue?.message ?? "is invalid"}`);
}
