import { z } from "zod";
import { clip } from "../lib/bounded-input.js";
import { normalizePhone, parseHandle } from "../lib/handles.js";
import { keyKind } from "../lib/key-hash.js";
import { whatsappApi } from "./numbers.js";
import { settingsPatch } from "./settings.js";

/**
 * The fixture file (docs/sandbox.md, "Fixtures"): what `serve --fixture`, `reset` and accounts on demand
 * take. Phones are validated and normalized to E.164 here; defaults are filled in.
 */

const phone = z.string().transform((value, ctx) => {
  const normalized = normalizePhone(value);
  if (!normalized) {
    ctx.addIssue({
      code: "custom",
      message: `"${clip(value)}" is not a valid phone number in E.164 form (try +1 415 555 01xx)`,
    });
    return z.NEVER;
  }
  return normalized;
});

const handle = z.string().transform((value, ctx) => {
  const parsed = parseHandle(value);
  if (!parsed) {
    ctx.addIssue({ code: "custom", message: `"${clip(value)}" is neither a valid phone number nor an email address` });
    return z.NEVER;
  }
  return parsed.value;
});

const keyOf = (kind: "messaging" | "otp", example: string) =>
  z
    .string()
    .max(200, `must look like ${example}`)
    .refine((key) => keyKind(key) === kind, { message: `must look like ${example}` });

/** One number of an account in a fixture. */
export const numberSchema = z
  .strictObject({
    handle: phone,
    channels: z.array(z.enum(["imessage", "sms", "whatsapp"])).min(1, "must name at least one channel"),
    label: z.string().max(100).default(""),
    // nullish: a parsed fixture (null for numbers without WhatsApp) parses again unchanged.
    whatsapp_api: whatsappApi.nullish(),
  })
  .superRefine((number, ctx) => {
    if (number.whatsapp_api && !number.channels.includes("whatsapp")) {
      ctx.addIssue({ code: "custom", path: ["whatsapp_api"], message: "is only for numbers that serve whatsapp" });
    }
  })
  .transform((number) => ({
    ...number,
    whatsapp_api: number.channels.includes("whatsapp") ? (number.whatsapp_api ?? "linked") : null,
  }));

/** An account's name: how `--account NAME` and accounts on demand refer to it. */
export const accountName = z.string().min(1, "must not be empty").max(100);
/** A messaging API key a fixture names. */
export const messagingKey = keyOf("messaging", "sk_test_<letters, digits or _>");
/** An OTP API key a fixture names. */
export const otpKey = keyOf("otp", "otp_live_<letters, digits or _>");

/** One account of a fixture. */
const accountSchema = z
  .strictObject({
    name: accountName,
    app_name: z.string().min(1).max(100).optional(),
    api_key: messagingKey.optional(),
    otp_api_key: otpKey.optional(),
    otp_suspended: z.boolean().default(false),
    numbers: z.array(numberSchema).max(100).default([]),
  })
  .transform((account) => ({ ...account, app_name: account.app_name ?? account.name }));

const contactSchema = z.strictObject({
  handle,
  imessage: z.boolean().optional(),
  platform: z.enum(["ios", "android"]).optional(),
  whatsapp: z.boolean().optional(),
  reachable: z.boolean().optional(),
  read_receipts: z.boolean().optional(),
});

/** A whole fixture file. */
export const fixtureSchema = z
  .strictObject({
    $schema: z.string().optional(),
    accounts: z.array(accountSchema).min(1, "must list at least one account"),
    contacts: z.array(contactSchema).default([]),
    otp: z
      .strictObject({ number: phone, whatsapp_number: phone.nullable().optional() })
      .default({ number: "+14155550190", whatsapp_number: "+14155550189" }),
    /** The simulated world's settings (latencies, media caps, …), as PATCH /sandbox/v1/settings takes them. */
    settings: settingsPatch.optional(),
  })
  .superRefine((fixture, ctx) => {
    const unique = (path: (i: number) => (string | number)[], values: (string | undefined)[], what: string) => {
      const seen = new Set<string>();
      values.forEach((value, i) => {
        if (value === undefined) return;
        if (seen.has(value))
          ctx.addIssue({ code: "custom", path: path(i), message: `${what} "${value}" appears twice` });
        seen.add(value);
      });
    };
    unique(
      (i) => ["accounts", i, "name"],
      fixture.accounts.map((a) => a.name),
      "account name",
    );
    unique(
      (i) => ["accounts", i, "api_key"],
      fixture.accounts.map((a) => a.api_key),
      "api_key",
    );
    unique(
      (i) => ["accounts", i, "otp_api_key"],
      fixture.accounts.map((a) => a.otp_api_key),
      "otp_api_key",
    );
    const numbers = fixture.accounts.flatMap((a, i) =>
      a.numbers.map((n, j) => ({ handle: n.handle, path: ["accounts", i, "numbers", j, "handle"] })),
    );
    unique(
      (i) => numbers[i]?.path ?? [],
      numbers.map((n) => n.handle),
      "number",
    );
    unique(
      (i) => ["contacts", i, "handle"],
      fixture.contacts.map((c) => c.handle),
      "contact",
    );
    // The OTP service's numbers are its own: the user texts codes to them, and a text to one
    // must never land in an account's thread instead.
    const accountOf = new Map(
      fixture.accounts.flatMap((account) => account.numbers.map((n) => [n.handle, account.name] as const)),
    );
    for (const key of ["number", "whatsapp_number"] as const) {
      const otpNumber = fixture.otp[key];
      const account = otpNumber ? accountOf.get(otpNumber) : undefined;
      if (account !== undefined)
        ctx.addIssue({
          code: "custom",
          path: ["otp", key],
          message: `"${otpNumber}" is a number of account "${account}" too: the OTP service's numbers are its own`,
        });
    }
  });

/** A validated fixture, with defaults filled in and handles in E.164. */
export type Fixture = z.output<typeof fixtureSchema>;

/** One account of a validated fixture. */
export type FixtureAccount = Fixture["accounts"][number];

/** A fixture as written by hand (fields with defaults may be left out). */
export type FixtureInput = z.input<typeof fixtureSchema>;
