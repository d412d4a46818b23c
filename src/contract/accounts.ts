import { z } from "zod";
import { accountName, messagingKey, numberSchema, otpKey } from "./fixture.js";
import { whatsappApi } from "./numbers.js";

/**
 * POST /sandbox/v1/accounts: an account of the fixture's shape, every field optional. Numbers
 * left out come from the documented pool (docs/control-api.md): `number_count` of them for iMessage
 * and SMS, and one WhatsApp number of the kind `whatsapp` names.
 */
export const createAccountBody = z
  .strictObject({
    name: accountName.optional().meta({ description: "default: account-<n>" }),
    app_name: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "named in OTP confirmations; default: the name" }),
    api_key: messagingKey.optional().meta({ description: "default: a generated sk_test_ key, shown once" }),
    otp_api_key: otpKey.optional().meta({ description: "default: a generated otp_live_ key, shown once" }),
    otp_suspended: z.boolean().default(false),
    numbers: z
      .array(numberSchema)
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "default: number_count numbers from the pool" }),
    number_count: z
      .number()
      .int()
      .min(1)
      .max(20)
      .optional()
      .meta({ description: "how many pool numbers (iMessage and SMS) when numbers is left out; default 1" }),
    whatsapp: whatsappApi.optional().meta({
      description:
        "one more pool number, for WhatsApp only, of this kind: linked (a linked device: groups, may need re-linking) or cloud (the WhatsApp Cloud API: no groups); when numbers is left out",
    }),
  })
  // Both given, one would be ignored without a word.
  .refine((body) => body.numbers === undefined || body.number_count === undefined, {
    path: ["number_count"],
    message: "give numbers or number_count, not both",
  })
  .refine((body) => body.numbers === undefined || body.whatsapp === undefined, {
    path: ["whatsapp"],
    message: "give numbers or whatsapp, not both (list the WhatsApp number among numbers, with its whatsapp_api)",
  })
  .optional();
/** The body of an account created on demand, as a client sends it. */
export type CreateAccountInput = z.input<typeof createAccountBody>;

/** DELETE /sandbox/v1/accounts/:name. */
export const deletedAccount = z.object({ name: z.string(), deleted: z.literal(true) });
