import { DELIVERY_CHAOS_KINDS } from "../contract/chaos-names.js";
import { EVENT_TYPES, type EventType } from "../contract/names.js";
import { EVENT_DESCRIPTIONS, eventPayloads } from "../contract/events.js";
import type { JsonSchema, Schema } from "../contract/json-schema.js";
import { defaultSettings } from "../domain/core/index.js";
import { CHAOS_HEADER, MAX_ATTEMPTS, RETRY_WAITS_MS } from "../domain/webhooks/index.js";
import { formatDuration } from "../lib/duration.js";
import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER } from "../lib/webhook-signature.js";

/**
 * The messaging document's `webhooks` (OpenAPI 3.1): the POST the sandbox makes to an endpoint for
 * each event of spec section 6, with its payload schema (the contract's, as receivers get it), its
 * headers, and the acknowledgement and retry rules, so code generators see the deliveries too.
 */

/** An event's webhook operation id: `messageSentWebhook`, an identifier every generator accepts. */
function webhookOperationId(type: EventType): string {
  const [first = "", ...rest] = type.split(".");
  return `${first}${rest.map((part) => part[0]?.toUpperCase() + part.slice(1)).join("")}Webhook`;
}

/** The rules every delivery follows, said once in each webhook's description. */
function deliveryRules(type: EventType): string {
  const timeout = formatDuration(defaultSettings.webhookTimeoutMs);
  const waits = RETRY_WAITS_MS.map(formatDuration).join(", ");
  return [
    `An HTTP POST of this payload (JSON, not enveloped) to every enabled endpoint of the account whose events include ${type}, signed in ${SIGNATURE_HEADER}.`,
    `Acknowledge with any 2xx within ${timeout} (real time; the sandbox's webhook_timeout_ms setting). Anything else (another status, a redirect, a refused connection, no answer in time) is a failed attempt: it is retried after ${waits} (${MAX_ATTEMPTS} attempts in all, each wait counted from the start of the attempt before it, in the sandbox's virtual time), then the delivery is failed.`,
    "Delivery is at least once. Dedupe on X-Msgctl-Event-Id, the same on every attempt of one event: message_id plus type, the key the service's spec suggests, also drops real events (a reaction and its removal share it, conversation events have no message_id, a second edit of one message repeats it).",
  ].join("\n\n");
}

/** The headers of every delivery, as header parameters of the webhook operation. */
const HEADERS: JsonSchema[] = [
  {
    name: SIGNATURE_HEADER,
    in: "header",
    required: true,
    description: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the endpoint's secret>. Recompute it over the raw, unparsed body and compare in constant time; refuse a t more than ${DEFAULT_TOLERANCE_SECONDS} s from now.`,
    schema: { type: "string", pattern: "^t=\\d+,v1=[0-9a-f]{64}$" },
    example: "t=1763739303,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
  },
  {
    name: "X-Msgctl-Event-Id",
    in: "header",
    required: true,
    description: "The event's id: the same on every attempt and resend of one event. The key to dedupe on.",
    schema: { type: "string", format: "uuid" },
  },
  {
    name: "X-Msgctl-Attempt",
    in: "header",
    required: true,
    description: `The rung of the retry ladder, 1 to ${MAX_ATTEMPTS} (a resend carries the rung it repeats).`,
    schema: { type: "integer", minimum: 1, maximum: MAX_ATTEMPTS },
  },
  {
    name: "X-Msgctl-Resend",
    in: "header",
    required: false,
    description: "Present on a resend asked for through the control API or msgctl webhooks resend.",
    schema: { type: "string", enum: ["1"] },
  },
  {
    name: CHAOS_HEADER,
    in: "header",
    required: false,
    description:
      "Present when seeded chaos touched this attempt: a duplicate, a swapped order or a held-back delivery.",
    schema: { type: "string", enum: [...DELIVERY_CHAOS_KINDS] },
  },
];

const FAILED_ATTEMPT = "a failed attempt: retried on the ladder";

/** The `webhooks` object: one POST per event name, its body the event's payload schema. */
export function webhooksSection(convert: (schema: Schema) => JsonSchema): Record<string, JsonSchema> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: webhookOperationId(type),
          summary: type,
          description: `${EVENT_DESCRIPTIONS[type]}\n\n${deliveryRules(type)}`,
          tags: ["Webhook events"],
          security: [],
          parameters: HEADERS,
          requestBody: {
            required: true,
            description: `The ${type} payload, exactly as the event holds it`,
            content: { "application/json": { schema: convert(eventPayloads[type]) } },
          },
          responses: {
            "2XX": { description: "acknowledged: the delivery succeeded" },
            "4XX": { description: FAILED_ATTEMPT },
            "5XX": { description: FAILED_ATTEMPT },
          },
        },
      },
    ]),
  );
}
