import { z } from "zod";
import { CHECK_PROBES } from "./check-probes.js";

/** POST /sandbox/v1/webhooks/check: the handler to check and the secret it verifies with. */
export const checkWebhookBody = z.strictObject({
  url: z.string().meta({
    description: "your handler: an http(s) URL under the webhook URL rules, loopback allowed even with --strict-urls",
    maxLength: 2_048,
    example: "http://127.0.0.1:3000/webhooks",
  }),
  secret: z
    .string()
    .min(16, "must be 16-200 characters")
    .max(200, "must be 16-200 characters")
    .meta({ description: "the signing secret your handler verifies with (whsec_… included)" }),
});
/** What a check is asked for. */
export type CheckWebhookInput = z.input<typeof checkWebhookBody>;

/** One probe's answer and its grade. */
export const probeResult = z
  .object({
    probe: z.enum(CHECK_PROBES).meta({ description: "which request of the battery (docs/check.md)" }),
    status: z
      .number()
      .int()
      .nullable()
      .meta({ description: "the HTTP status the handler answered; null when none came" }),
    ms: z
      .number()
      .int()
      .min(0)
      .meta({ description: "real milliseconds until the answer (or until the sandbox gave up)" }),
    verdict: z.enum(["pass", "fail"]),
    why: z.string().meta({
      description:
        'what the answer means and, when it failed, what to change; a pass may add advice after "; " (the repeat: dedupe)',
    }),
  })
  .meta({ id: "CheckProbe" });
/** One probe's answer and its grade. */
export type ProbeResult = z.output<typeof probeResult>;

/** What a check answers: every probe of the battery, in the order they were sent. */
export const webhookCheckReport = z
  .object({
    url: z.string().meta({ description: "the handler, as checked (normalised)" }),
    passed: z.boolean().meta({ description: "every probe's verdict is pass" }),
    probes: z.array(probeResult),
  })
  .meta({ id: "WebhookCheck", description: "A webhook handler graded against the signing and delivery rules" });
/** What a check answers. */
export type WebhookCheckReport = z.output<typeof webhookCheckReport>;
