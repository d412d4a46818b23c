import { z } from "zod";
import { deliveryChaos } from "./chaos.js";
import { pageQuery, timestamp, uuid, uuidReference } from "./common.js";
import { EVENT_TYPES, isEventType, type EventType } from "./names.js";
import { DELIVERY_STATUSES } from "./statuses.js";

/** A webhook endpoint as every read returns it: never with its secret. */
export const webhookResource = z
  .object({
    id: uuid,
    url: z.string(),
    events: z.array(z.enum(EVENT_TYPES)),
    enabled: z.boolean(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({
    id: "Webhook",
    description: "A webhook endpoint, never with its secret on reads (spec 4.4)",
  });
/** A webhook endpoint as every read returns it. */
export type WebhookResource = z.output<typeof webhookResource>;

/** The endpoint with its signing secret: creation, idempotent replay, rotation only (spec 4.4). */
export const webhookWithSecret = webhookResource.extend({
  secret: z.string().meta({ description: "the signing secret, whsec_… when generated" }),
});
/** The endpoint with its signing secret. */
export type WebhookWithSecret = z.output<typeof webhookWithSecret>;

/** The creation answer: the endpoint, its secret, and the account's other endpoints, newest first. */
export const createdWebhook = webhookWithSecret.extend({ other_webhooks: z.array(webhookResource) });
/** The creation answer. */
export type CreatedWebhook = z.output<typeof createdWebhook>;

/** DELETE /v1/webhooks/:id. */
export const deletedWebhook = z.object({ id: uuid, deleted: z.literal(true) });

const secretField = z.string().min(16, "must be 16-200 characters").max(200, "must be 16-200 characters");

const eventsField = z
  // The names are checked below, one message per unknown name; the document lists them.
  .array(
    z
      .string()
      .max(64)
      .meta({ enum: [...EVENT_TYPES] }),
  )
  .min(1, "must name at least one event (omit it to subscribe to every event)")
  .max(100)
  .superRefine((names, check) => {
    names.forEach((name, i) => {
      if (!isEventType(name)) {
        check.addIssue({
          code: "custom",
          path: [i],
          message: `unknown event "${name}" (known: ${EVENT_TYPES.join(", ")})`,
        });
      }
    });
  })
  .transform((names) => [...new Set(names)] as EventType[]);

/**
 * A webhook URL: its length is checked with the rest of its rules (lib/webhook-url.ts), so that
 * every URL error is 400 invalid_url; the schema only documents the limit.
 */
const urlField = z.string().meta({ maxLength: 2_048 });

/** POST /v1/webhooks (spec 4.4). */
export const createWebhookBody = z.strictObject({
  url: urlField.meta({ description: "public http(s) endpoint (loopback allowed unless --strict-urls)" }),
  events: eventsField.optional().meta({ description: "omit to subscribe to everything" }),
  secret: secretField.optional().meta({ description: "omit to have a whsec_ secret generated" }),
});
/** Fields of a create. */
export type CreateWebhookInput = z.input<typeof createWebhookBody>;

/** PATCH /v1/webhooks/:id: only the fields to change. */
export const updateWebhookBody = z.strictObject({
  url: urlField.optional(),
  events: eventsField.optional(),
  secret: secretField.optional(),
  enabled: z.boolean().optional().meta({ description: "false pauses" }),
});
/** Fields of a PATCH. */
export type UpdateWebhookInput = z.input<typeof updateWebhookBody>;

/** GET /v1/webhooks query. */
export const listWebhooksQuery = pageQuery;

// --- Deliveries (the control API) ---

/** One attempt: `at` is the virtual instant it started, `duration_ms` real time. */
const deliveryAttempt = z
  .object({
    n: z.number().int().min(1).meta({
      description: "The attempt's place among the delivery's attempts: 1-8 on the retry ladder, more only with resends",
    }),
    at: timestamp,
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number().int(),
    resend: z
      .boolean()
      .meta({ description: "Made by hand with POST /sandbox/v1/deliveries/{id}/resend, outside the retry ladder" }),
    signature: z.string().nullable().meta({
      description: "The X-service-Signature header the attempt carried (t=…,v1=…); null when no request went out",
    }),
  })
  .meta({ id: "DeliveryAttempt" });
/** One attempt of a delivery. */
export type DeliveryAttempt = z.output<typeof deliveryAttempt>;

/** A delivery as `webhooks deliveries` and the control API show it. */
export const delivery = z
  .object({
    id: uuid,
    webhook_id: uuid,
    event_id: uuid,
    event_type: z.enum(EVENT_TYPES),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.array(deliveryAttempt),
    next_attempt_at: timestamp.nullable(),
    created_at: timestamp,
    chaos: deliveryChaos,
  })
  .meta({
    id: "Delivery",
    description: "One event's delivery to one endpoint, with every attempt",
  });
/** A webhook delivery. */
export type Delivery = z.output<typeof delivery>;

/** GET /sandbox/v1/deliveries query. */
export const listDeliveriesQuery = pageQuery.extend({
  webhook_id: uuidReference.optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
  event_id: uuidReference.optional(),
});
/** GET /sandbox/v1/deliveries/stream query. */
export const streamDeliveriesQuery = z.object({
  webhook_id: uuidReference.optional().meta({ description: "only this endpoint's deliveries" }),
});

/** The retry ladder every delivery climbs (GET /sandbox/v1/webhooks/retry-ladder): one copy, the domain's. */
export const retryLadder = z
  .object({
    attempts: z.number().int().min(1).meta({ description: "Attempts a delivery gets before it is marked failed" }),
    waits_ms: z.array(z.number().int().min(0)).meta({
      description:
        "The wait before attempts 2, 3, … in milliseconds of sandbox time, each counted from the start of the attempt before; exact, no jitter",
    }),
  })
  .meta({ id: "RetryLadder", description: "The retry ladder of webhook deliveries" });
/** The retry ladder as the control API serves it. */
export type RetryLadder = z.output<typeof retryLadder>;
