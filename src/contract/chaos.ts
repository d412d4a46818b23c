import { z } from "zod";
import { CHAOS_KINDS, CHAOS_PROFILE_NAMES, DELIVERY_CHAOS_KINDS } from "./chaos-names.js";
import { queryNumber, timestamp, uuid } from "./common.js";
import { EVENT_TYPES } from "./names.js";

export * from "./chaos-names.js";

/** A seed: any string of 1-200 characters, or a whole number (42 and "42" are the same seed). */
export const chaosSeed = z
  .union([z.string().min(1).max(200), z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER)], {
    message: "must be a string of 1-200 characters or a whole number",
  })
  .meta({ description: 'a string of 1-200 characters or a whole number; 42 and "42" are the same seed', example: 42 });

/** PUT /sandbox/v1/chaos. */
export const chaosBody = z.strictObject({
  seed: chaosSeed,
  profile: z.enum(CHAOS_PROFILE_NAMES).default("mild").meta({ description: "default mild" }),
});
/** What switches chaos on. */
export type ChaosInput = z.input<typeof chaosBody>;

/** The rate of each kind of chaos, per decision, as a fraction (0.05 is 5%). */
const chaosRates = z
  .object(
    Object.fromEntries(CHAOS_KINDS.map((kind) => [kind, z.number().min(0).max(1)])) as Record<
      (typeof CHAOS_KINDS)[number],
      z.ZodNumber
    >,
  )
  .meta({ id: "ChaosRates", description: "Per decision, as a fraction: 0.05 is 5% (docs/chaos.md)" });
/** The rate of each kind of chaos. */
export type ChaosRates = z.output<typeof chaosRates>;

/** GET, PUT and DELETE /sandbox/v1/chaos answer the chaos in force. */
export const chaosStatus = z
  .object({
    enabled: z.boolean(),
    seed: z.union([z.string(), z.number().int()]).nullable().meta({ description: "as it was given; null while off" }),
    profile: z.enum(CHAOS_PROFILE_NAMES).nullable(),
    rates: chaosRates.nullable().meta({ description: "the profile's rates; null while off" }),
  })
  .meta({ id: "Chaos", description: "Seeded chaos: whether it is on, with which seed and profile" });
/** The chaos in force. */
export type ChaosStatus = z.output<typeof chaosStatus>;

/** One decision of the chaos log (GET /sandbox/v1/chaos/log); fields that do not concern it are null. */
export const chaosLogEntry = z
  .object({
    id: z.number().int().min(1).meta({ description: "increasing; list after it with `after`" }),
    at: timestamp.meta({ description: "the clock's time of the decision" }),
    kind: z.enum(CHAOS_KINDS),
    event_id: uuid.nullable(),
    event_type: z.enum(EVENT_TYPES).nullable(),
    event_number: z
      .number()
      .int()
      .nullable()
      .meta({ description: "the event's place among its account's events since chaos was switched on (from 1)" }),
    webhook_id: uuid.nullable(),
    endpoint_number: z
      .number()
      .int()
      .nullable()
      .meta({ description: "the endpoint's place among its account's endpoints, in creation order (from 1)" }),
    delivery_id: uuid.nullable().meta({
      description: "the delivery touched: for a duplicate, the copy (its event's other delivery is the original)",
    }),
    message_id: uuid.nullable(),
    message_number: z
      .number()
      .int()
      .nullable()
      .meta({ description: "the message's place among its account's sends since chaos was switched on (from 1)" }),
    handle: z.string().nullable().meta({ description: "the account's number a send fault concerns" }),
    receipt: z.enum(["delivered", "read"]).nullable(),
    member: z.string().nullable().meta({ description: "the group member whose receipt was lost" }),
    delay_ms: z.number().int().nullable().meta({
      description:
        "sandbox time: how much later a copy goes, the extra wait of a first attempt, the longest a swap waits, how long a number stays offline",
    }),
  })
  .meta({ id: "ChaosLogEntry" });
/** One decision of the chaos log. */
export type ChaosLogEntry = z.output<typeof chaosLogEntry>;

/** GET /sandbox/v1/chaos/log query: decisions after an id, oldest first (or newest first), as the events' list. */
export const chaosLogQuery = z.object({
  after: queryNumber(
    z.number({ message: "must be a whole number" }).int("must be a whole number").min(0).default(0),
  ).meta({ description: "the id to list after (0: from the start)" }),
  limit: queryNumber(
    z
      .number({ message: "must be a whole number from 1 to 100" })
      .int("must be a whole number from 1 to 100")
      .min(1, "must be from 1 to 100")
      .max(100, "must be from 1 to 100")
      .default(100),
  ),
  order: z
    .enum(["asc", "desc"])
    .default("asc")
    .meta({ description: "asc: oldest first (to follow the log after an id); desc: newest first" }),
});

/** The `X-Msgctl-Chaos` values a delivery's `chaos` field takes. */
export const deliveryChaos = z.enum(DELIVERY_CHAOS_KINDS).nullable().meta({
  description:
    "Seeded chaos that touched it (its attempts carry X-Msgctl-Chaos): a copy of its event sent again (`duplicate`), or a first attempt swapped with the next one (`reordered`) or held back (`delayed`); null otherwise",
});
