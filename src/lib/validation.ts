import type { z } from "zod";
import { invalidRequest } from "./app-error.js";

/**
 * Validates input against a zod schema; on failure throws 400 invalid_request whose message
 * names the first offending field (SANDBOX.md section 5).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where = "body"): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.length ? issue.path.join(".") : where;
  throw invalidRequest(`${path}: ${issue?.message ?? "is invalid"}`);
}
