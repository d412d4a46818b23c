import { invalidRequest } from "./app-error.js";
import { clip } from "./bounded-input.js";
import { parseHandleMemo } from "./handle-memo.js";

/** Parses a handle from request input (E.164 or an iMessage email), or throws invalid_request naming `field`. */
export function requireHandle(input: string, field: string): string {
  const handle = parseHandleMemo(input);
  if (!handle)
    throw invalidRequest(`${field}: "${clip(input)}" is not a valid E.164 phone number or iMessage email address`);
  return handle.value;
}
