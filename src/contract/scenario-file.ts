import { z } from "zod";
import { chaosSeed } from "./chaos.js";
import { CHAOS_PROFILE_NAMES } from "./chaos-names.js";
import { EVENT_TYPES } from "./names.js";
import { toJsonSchema, type JsonSchema } from "./json-schema.js";
import { CHALLENGE_STATUSES, DELIVERY_STATUSES, MESSAGE_STATUSES } from "./statuses.js";

/**
 * The scenario file that `msgctl run` reads (YAML or JSON): a name, an optional snapshot to start
 * from, and steps, each one kind of action or check. Defined once here: the runner validates
 * files with these schemas and `msgctl run --schema` prints them as JSON Schema. String values
 * may hold `{{name.path}}` placeholders, filled in when the step runs.
 */

const DURATION = /^(\d+|(\d+(\.\d+)?(ms|s|m|h|d))+)$/;
const duration = z
  .string()
  .regex(DURATION, "must be a duration such as 500ms, 5s, 10m or 1h30m")
  .meta({ description: "a duration: 500ms, 5s, 10m, 24h, 1h30m", example: "5s" });
const text = z.string();
const id = z.string().min(1).meta({ description: "an id, usually a saved result: {{msg.id}}" });
const handle = z.string().min(1).meta({ description: "a phone number (E.164) or an iMessage email" });
const number = z.string().min(1).meta({ description: "one of the account's numbers: {{numbers.0}}" });
const channel = z.enum(["imessage", "sms", "whatsapp"]);
/** A JSON object that must be contained in what is looked at (every field equal, recursively). */
const subset = z
  .record(z.string(), z.unknown())
  .meta({ description: "a JSON subset: every field given must be equal (objects compared field by field)" });

/** A name a step's result is kept under, for `{{name.path}}` in later steps. */
const SAVE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Names the runner provides itself; `save` may not reuse them. */
export const BUILT_IN_NAMES = ["numbers", "account", "base_url", "otp_url", "env"] as const;

const send = z
  .strictObject({
    to: handle.optional().meta({ description: "the recipient (with from)" }),
    from: number.optional(),
    conversation: id.optional().meta({ description: "an existing thread instead of to/from" }),
    text: text.optional(),
    channel: z.literal("whatsapp").optional(),
    effect: z.string().optional(),
    reply_to: id.optional(),
    media_quality: z.enum(["fit", "original"]).optional(),
    idempotency_key: z.string().optional(),
  })
  .meta({ description: "POST /v1/messages; the result is the Message" });

const messageId = z.strictObject({ id });
const simulate = z
  .strictObject({
    inbound: z
      .strictObject({
        from: handle,
        to: number.optional(),
        text: text.optional(),
        channel: channel.optional(),
        members: z.array(handle).optional().meta({ description: "a new group: every participant but from and to" }),
        group: id.optional().meta({ description: "an existing group: one of its conversations' id" }),
      })
      .meta({ description: "a contact sends a message; the result is the inbound Message" }),
    delivered: messageId.meta({ description: "moves an outbound message forward to delivered" }),
    read: messageId.meta({ description: "moves an outbound message forward to read" }),
    fail: z.strictObject({ id, error: z.string().optional() }).meta({ description: "fails a queued or sent message" }),
    reaction: z.strictObject({ id, from: handle, reaction: z.string(), remove: z.boolean().optional() }),
    typing: z.strictObject({
      from: handle,
      to: number.optional(),
      group: id.optional(),
      stop: z.boolean().optional(),
    }),
    rename: z.strictObject({ id, title: z.string(), from: handle.optional() }),
    add: z.strictObject({ id, handle, from: handle }),
    remove: z.strictObject({ id, handle, from: handle }),
    edit: z.strictObject({ id, text }),
    fault: z.strictObject({
      number,
      fault: z.enum(["offline", "online", "transient", "rate-limited", "relink-required"]),
      count: z.number().int().min(0).optional(),
      off: z.boolean().optional(),
    }),
    otp_fault: z.strictObject({ fault: z.literal("unavailable"), off: z.boolean().optional() }),
  })
  .partial()
  .meta({ description: "one simulate action: exactly one of its keys" });

const otp = z
  .strictObject({
    create: z.strictObject({ phone: handle }).meta({ description: "POST /v1/challenges; the result is the challenge" }),
    text: z
      .strictObject({
        id,
        code: z.string().optional(),
        wrong: z.boolean().optional(),
        text: text.optional(),
        from: handle.optional(),
        channel: channel.optional(),
      })
      .meta({ description: "the challenge's user texts the OTP number (the right code by default)" }),
    consume: z.strictObject({ id }).meta({ description: "POST /v1/challenges/:id/consume" }),
  })
  .partial()
  .meta({ description: "one OTP action: exactly one of create, text, consume" });

const webhook = z
  .strictObject({
    url: z.string().min(1),
    events: z.array(z.enum(EVENT_TYPES)).min(1).optional().meta({ description: "default: every event" }),
    secret: z.string().min(16).max(200).optional().meta({ description: "default: a generated whsec_ secret" }),
  })
  .meta({ description: "POST /v1/webhooks; the result is the endpoint with its secret" });

const settle = z
  .strictObject({ timeout: duration.optional().meta({ description: "real time; default 10s" }) })
  .meta({ description: "waits until nothing due is in flight (never moves the clock)" });

const wait = z
  .strictObject({
    message: z.strictObject({ id, status: z.enum(MESSAGE_STATUSES), timeout: duration.optional() }),
    event: z.strictObject({
      type: z.enum(EVENT_TYPES),
      match: subset.optional(),
      delivered: z.boolean().optional().meta({ description: "until its first attempt to every endpoint finished" }),
      timeout: duration.optional(),
    }),
    otp: z.strictObject({ id, status: z.enum(CHALLENGE_STATUSES), timeout: duration.optional() }),
  })
  .partial()
  .meta({ description: "blocks (real time, default 10s) like `msgctl wait`: one of message, event, otp" });

const http = z
  .strictObject({
    method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]).default("GET"),
    url: z.string().min(1),
    headers: z.record(z.string(), z.string()).optional(),
    json: z.unknown().optional().meta({ description: "a JSON body" }),
    body: z.string().optional().meta({ description: "a raw body" }),
    expect_status: z.number().int().min(100).max(599).optional(),
    expect_json: z.unknown().optional().meta({ description: "a JSON subset the answer's body must contain" }),
    timeout: duration.optional().meta({ description: "real time; default 10s" }),
  })
  .meta({ description: "a request to your own app; the result is { status, headers, body }" });

const chaos = z
  .union(
    [
      z.strictObject({
        seed: chaosSeed,
        profile: z.enum(CHAOS_PROFILE_NAMES).optional().meta({ description: "default mild" }),
      }),
      z.literal("off"),
    ],
    { error: () => 'must be { seed, profile } (a seed, and mild or rough) or "off"' },
  )
  .meta({
    description:
      "seeded chaos for the whole sandbox (docs/chaos.md): { seed, profile } switches it on, off switches it off; the result is the chaos in force",
  });

const check = z
  .strictObject({
    url: z.string().min(1).meta({ description: "your handler, e.g. {{env.APP_URL}}/webhooks" }),
    secret: z.string().min(16).max(200).meta({ description: "the signing secret it verifies with" }),
  })
  .meta({
    description:
      "grades your own webhook handler with the battery of `msgctl webhooks check` (docs/check.md): unmet when a probe fails, each named with what to change; the result is the report { url, passed, probes }",
  });

const within = duration.optional().meta({
  description: "on a manual clock, advance step by step up to this much until it holds; on a real clock, wait",
});
const expect = z
  .strictObject({
    event: z.enum(EVENT_TYPES).optional().meta({ description: "an event of this type was emitted" }),
    match: subset.optional().meta({ description: "event: its payload contains this; message: the Message does" }),
    delivered: z
      .boolean()
      .optional()
      .meta({ description: "event: true, every endpoint answered 2xx; false, none did" }),
    message: id.optional().meta({ description: "this message reached status (read counts as delivered)" }),
    status: z.enum([...new Set([...MESSAGE_STATUSES, ...DELIVERY_STATUSES])]).optional(),
    delivery: z
      .strictObject({
        event: z.enum(EVENT_TYPES),
        match: subset.optional(),
        webhook: id.optional().meta({ description: "this endpoint's delivery (default: any)" }),
      })
      .optional()
      .meta({ description: "the delivery of a matching event: its status and attempts" }),
    attempts: z
      .union([z.number().int().min(0), z.array(subset)])
      .optional()
      .meta({ description: "how many attempts, or a subset of each attempt in order ({ status_code: 500 })" }),
    within,
  })
  .meta({ description: "an expectation: event, message or delivery; settles first, then looks" });

/** Each step kind's body, by its key. */
export const STEP_BODIES = {
  send,
  simulate,
  otp,
  webhook,
  advance: duration.meta({ description: "moves a manual clock forward, running everything due" }),
  settle: z.union([settle, z.null()]),
  wait,
  http,
  expect,
  chaos,
  check,
} as const;

/** A step's kind: the one key of a step besides `save`. */
export type StepKind = keyof typeof STEP_BODIES;
/** Every step kind, in the order the docs list them. */
export const STEP_KINDS = Object.keys(STEP_BODIES) as StepKind[];

/** One step: its kind's key and body, and an optional name to save its result under. */
export type ScenarioStep = {
  [K in StepKind]: { kind: K; body: z.output<(typeof STEP_BODIES)[K]>; save?: string };
}[StepKind];

const saveName = z
  .string()
  .regex(SAVE_NAME, "must be a name of letters, digits and _ (not starting with a digit)")
  .refine((name) => !(BUILT_IN_NAMES as readonly string[]).includes(name), {
    message: `must not be a built-in name (${BUILT_IN_NAMES.join(", ")})`,
  });

/** The file's fields besides its steps. */
export const scenarioHeader = z.strictObject({
  name: z.string().min(1).optional().meta({ description: "shown in reports; default: the file name" }),
  restore: z
    .string()
    .regex(
      /^([A-Za-z0-9._-]{1,64}|\.{0,2}\/.+)$/,
      "must be a snapshot name ([A-Za-z0-9._-], 1-64 characters) or an exported snapshot's path (./file)",
    )
    .optional()
    .meta({
      description:
        "restore this snapshot (the whole sandbox) first and run as the connection's account: a name, or an exported file's path starting with ./, ../ or /",
    }),
  steps: z.array(z.unknown()).min(1),
});

/** Steps as JSON Schema sees them: one object per kind, with `save`. */
const stepSchemas = STEP_KINDS.map((kind) =>
  z.strictObject({ [kind]: STEP_BODIES[kind], save: saveName.optional() }).meta({ title: kind }),
);

/** The whole file as one schema, for `msgctl run --schema`. */
const scenarioFile = scenarioHeader.extend({
  steps: z.array(z.union(stepSchemas as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]])).min(1),
});

/** The scenario file format as JSON Schema (draft 2020-12). */
export function scenarioJsonSchema(): JsonSchema {
  return {
    title: "msgctl scenario file",
    ...toJsonSchema(scenarioFile, "input"),
  };
}

/** The schema of `save`, for the runner's own checks. */
export const saveNameSchema = saveName;
