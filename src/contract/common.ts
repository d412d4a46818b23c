import { z } from "zod";
import { atMostCharacters } from "../lib/bounded-input.js";
import { parseIsoTime } from "../lib/clock.js";

/**
 * Shapes shared by every resource of both hosts (spec section 1, Conventions). The contract
 * folder is the one definition of every JSON shape that crosses a host: the domain builds these
 * shapes, the typed client reads them, and the OpenAPI document is generated from them.
 */

/**
 * A request body as the domain receives it: a JSON object whose fields are not checked yet (the
 * server has answered a missing body or another JSON value; the domain parses the fields).
 */
export type JsonObject = { [field: string]: unknown };

/** `<timestamp>`: ISO 8601 with milliseconds, UTC. */
export const timestamp = z
  .string()
  .meta({ format: "date-time", description: "ISO 8601 with milliseconds, UTC", example: "2026-01-01T12:00:00.000Z" });

/** A UUID (ids of messages, conversations, attachments, webhooks, deliveries, events). */
export const uuid = z.string().meta({ format: "uuid" });

/**
 * An id a request names (a query filter, a body field): bounded here, its UUID form checked by the
 * domain where it looks the id up (400 `<field>: must be a UUID`), and documented as one.
 */
export const uuidReference = z.string().max(64).meta({ format: "uuid" });

/** A messaging channel. */
export const channel = z.enum(["imessage", "sms", "whatsapp"]);
/** A messaging channel. */
export type Channel = z.output<typeof channel>;

/** The error shape of every 4xx/5xx answer (spec section 7). */
export const errorBody = z.object({
  error: z.string().meta({ description: "machine code, e.g. invalid_request" }),
  message: z.string().meta({ description: "human-readable explanation naming the field at fault" }),
  request_id: z.string().meta({ description: "also in the X-Request-Id header" }),
});
/** The error shape of every 4xx/5xx answer (spec section 7). */
export type ErrorBody = z.output<typeof errorBody>;

/** The success envelope `{ data, request_id }` (spec section 1). */
export interface Envelope<T> {
  data: T;
  request_id: string;
}

/** The list envelope `{ data, has_more, request_id }` (spec section 1). */
export interface ListEnvelope<T> {
  data: T[];
  has_more: boolean;
  request_id: string;
}

/** A page of a list as the typed client returns it: `before` the oldest item's cursor fetches the next. */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

/**
 * A whole number in a query string: decimal digits only. `z.coerce` would read `0x10` as 16, `1e1`
 * as 10 and `+5` as 5: typos or probes, answered 400 like any other bad value. Anything else is
 * left as it came, for `schema` to refuse.
 */
export const queryNumber = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value: number | string | undefined) =>
      typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : value,
    schema,
  );

/** `limit` 1-100 (default 50) and a `before` ISO cursor (spec 4.3, 4.5, section 8). */
export const pageQuery = z.object({
  limit: queryNumber(
    z
      .number({ message: "must be a whole number from 1 to 100" })
      .int("must be a whole number from 1 to 100")
      .min(1, "must be from 1 to 100")
      .max(100, "must be from 1 to 100")
      .default(50),
  ),
  before: timestamp.optional().transform((value, issue) => {
    if (value === undefined) return undefined;
    // Bounded before parsing: a cursor is never longer than an ISO timestamp with an offset. A
    // `+` offset sent unescaped in a query string arrives as a space: it can only mean `+`.
    const ms = value.length <= 40 ? parseIsoTime(value.replace(/ (\d{2}:?\d{2})$/, "+$1")) : undefined;
    if (ms === undefined) {
      issue.addIssue({ code: "custom", message: "must be an ISO 8601 timestamp such as 2026-01-01T00:00:00.000Z" });
      return z.NEVER;
    }
    return ms;
  }),
});

/**
 * A message's text: 1 to `max` characters, counted as code points (an emoji is one, as
 * JSON Schema's maxLength counts), not UTF-16 units as zod's `max` would.
 */
export const messageText = (max: number) =>
  z
    .string()
    .min(1, "must not be empty")
    .refine((text) => atMostCharacters(text, max), `must be at most ${max} characters`)
    .meta({ maxLength: max });
