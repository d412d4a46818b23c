import { z } from "zod";
import { channel, timestamp } from "./common.js";

/** How a WhatsApp number is connected: a linked device (groups, may need re-linking) or the WhatsApp Cloud API (no groups). */
export const whatsappApi = z.enum(["linked", "cloud"]);

/** The Number resource (spec section 2, GET /v1/numbers). */
export const numberResource = z
  .object({
    handle: z.string().meta({ description: "E.164 number; used as from_handle", example: "+14155550101" }),
    channels: z.array(channel),
    label: z.string(),
    status: z
      .string()
      .meta({ description: "`online`, or the fault the number is in: `offline`, `rate_limited`, `relink_required`" }),
    whatsapp_api: whatsappApi
      .optional()
      .meta({ description: "WhatsApp numbers only: a linked device or the WhatsApp Cloud API" }),
  })
  .meta({ id: "Number", description: "One of the account's numbers (spec section 2)" });
/** The Number resource (spec section 2). */
export type NumberResource = z.output<typeof numberResource>;

/** The faults `simulate fault` switches. */
export const FAULT_NAMES = ["offline", "online", "transient", "rate-limited", "relink-required"] as const;
/** A fault name. */
export type FaultName = (typeof FAULT_NAMES)[number];

/** POST /sandbox/v1/numbers/:handle/faults. */
export const faultBody = z.strictObject({
  fault: z.enum(FAULT_NAMES, { message: `must be one of ${FAULT_NAMES.join(", ")}` }),
  count: z
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .optional()
    .meta({ description: "transient only: how many attempts fail (0 clears)" }),
  off: z.boolean().optional().meta({ description: "switch the fault off" }),
});
/** The body of a fault switch. */
export type FaultSwitch = z.output<typeof faultBody>;

/** A number's faults as the control API shows them. */
export const numberFaults = z
  .object({
    handle: z.string(),
    status: z.string(),
    offline: z.boolean(),
    transient_remaining: z.number().int(),
    rate_limited: z.boolean(),
    rate_limit_level: z
      .number()
      .int()
      .meta({ description: "repeats so far; the cool-down doubles with each (2 min up to 30 min)" }),
    rate_limited_until: timestamp.nullable(),
    relink_required: z.boolean(),
  })
  .meta({ id: "NumberFaults" });
/** A number's faults as the control API shows them. */
export type NumberFaults = z.output<typeof numberFaults>;
