import type { JsonObject } from "../contract/common.js";
import { invalidRequest } from "../lib/app-error.js";
import { kindOf } from "../lib/validation.js";
import type { Route } from "./route.js";

/*
 * What the server checks of a request before the domain sees it: a route's required JSON object
 * body, and the form of the Idempotency-Key header of a route that takes one. The domain then
 * takes an object and a key.
 */

/** The header a repeated create sends to get its first answer again (spec 4.3, 4.4, 4.5). */
const IDEMPOTENCY_HEADER = "Idempotency-Key";

/** True for a route whose document lists the Idempotency-Key header: the server checks its form. */
export function takesIdempotencyKey(route: Route): boolean {
  return route.doc.headers?.[IDEMPOTENCY_HEADER] !== undefined;
}

/**
 * A route's required JSON body (`Route.requiresBody`): 400 `body: required, e.g. <example>` when
 * there is none, `body: must be an object, not null` (or an array, a string…) for another value.
 */
export function requireObjectBody(input: unknown, example: string): JsonObject {
  if (input === undefined) throw invalidRequest(`body: required, e.g. ${example}`);
  if (input === null || typeof input !== "object" || Array.isArray(input))
    throw invalidRequest(`body: must be an object, not ${kindOf(input)}`);
  return input as JsonObject;
}

/** An Idempotency-Key header: absent (undefined), or 1 to 255 characters (400 otherwise). */
export function idempotencyKeyOf(header: string | null): string | undefined {
  if (header === null) return undefined;
  if (header.length === 0 || header.length > 255)
    throw invalidRequest(`${IDEMPOTENCY_HEADER}: must be 1 to 255 characters`);
  return header;
}
