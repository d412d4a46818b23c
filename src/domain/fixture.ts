import { z } from "zod";
import { AppError } from "../lib/app-error.js";
import { clip } from "../lib/bounded-input.js";
import { normalizePhone, parseHandle } from "../lib/handles.js";
import { keyKind } from "../lib/key-hash.js";

const phone = z.string().transform((value, ctx) => {
  const normalized = normalizePhone(value);
  if (!normalized) {
    ctx.addIssue({ code: "custom", message: `"${clip(value)}" is not a valid phone number in E.164 form (try +1 415 555 01xx)` });
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
  z.string().refine((key) => keyKind(key) === kind, { message: `must look like ${example}` });

const numberSchema = z
  .strictObject({
    handle: phone,
    channels: z.array(z.enum(["imessage", "sms", "whatsapp"])).min(1, "must name at least one channel"),
    label: z.string().max(100).default(""),
    whatsapp_api: z.enum(["linked", "cloud"]).optional(),
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

const accountSchema = z
  .strictObject({
    name: z.string().min(1, "must not be empty").max(100),
    app_name: z.string().min(1).max(100).optional(),
    api_key: keyOf("messaging", "sk_test_<letters, digits or _>").optional(),
    otp_api_key: keyOf("otp", "otp_live_<letters, digits or _>").optional(),
    otp_suspended: z.boolean().default(false),
    numbers: z.array(numberSchema).default([]),
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

const fixtureSchema = z
  .strictObject({
    $schema: z.string().optional(),
    accounts: z.array(accountSchema).min(1, "must list at least one account"),
    contacts: z.array(contactSchema).default([]),
    otp: z
      .strictObject({ number: phone, whatsapp_number: phone.nullable().optional() })
      .default({ number: "+14155550190", whatsapp_number: "+14155550189" }),
  })
  .superRefine((fixture, ctx) => {
    const unique = (path: (i: number) => (string | number)[], values: (string | undefined)[], what: string) => {
      const seen = new Set<string>();
      values.forEach((value, i) => {
        if (value === undefined) return;
        if (seen.has(value)) ctx.addIssue({ code: "custom", path: path(i), message: `${what} "${value}" appears twice` });
        seen.add(value);
      });
    };
    unique((i) => ["accounts", i, "name"], fixture.accounts.map((a) => a.name), "account name");
    unique((i) => ["accounts", i, "api_key"], fixture.accounts.map((a) => a.api_key), "api_key");
    unique((i) => ["accounts", i, "otp_api_key"], fixture.accounts.map((a) => a.otp_api_key), "otp_api_key");
    const numbers = fixture.accounts.flatMap((a, i) => a.numbers.map((n, j) => ({ handle: n.handle, path: ["accounts", i, "numbers", j, "handle"] })));
    unique((i) => numbers[i]?.path ?? [], numbers.map((n) => n.handle), "number");
    unique((i) => ["contacts", i, "handle"], fixture.contacts.map((c) => c.handle), "contact");
  });

/** A validated fixture, with defaults filled in and handles in E.164. */
export type Fixture = z.output<typeof fixtureSchema>;

/** One account of a fixture. */
export type FixtureAccount = Fixture["accounts"][number];

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, part) => (typeof part === "number" ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)), "");
}

/**
 * Validates a parsed fixture (SANDBOX.md section 2). On error throws invalid_request whose
 * message names the file, the field and the problem, e.g.
 * `fixtures/x.json: accounts[0].numbers[1].handle: "+1555…" is not a valid phone number`.
 */
export function parseFixture(input: unknown, source: string): Fixture {
  const result = fixtureSchema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${source}: ${formatPath(issue.path) || "(top level)"}: ${issue.message}`);
  throw new AppError("invalid_request", 400, problems.join("\n"));
}

/** Parses fixture text (JSON) from a named source. */
export function parseFixtureText(text: string, source: string): Fixture {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AppError("invalid_request", 400, `${source}: not valid JSON (${(error as Error).message})`);
  }
  return parseFixture(json, source);
}
