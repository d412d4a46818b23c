import type { HttpClient } from "./http.js";

/** A webhook endpoint as reads return it (never with a secret). */
export interface WebhookResource {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

/** The endpoint with its signing secret (create, idempotent replay, rotate). */
export type WebhookWithSecret = WebhookResource & { secret: string };

/** The answer to a create: the endpoint, its secret and the account's other endpoints. */
export type CreatedWebhook = WebhookWithSecret & { other_webhooks: WebhookResource[] };

/** One attempt of a delivery: `at` is virtual time, `duration_ms` real time. */
export interface DeliveryAttempt {
  n: number;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** A webhook delivery as the control API shows it. */
export interface Delivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: "pending" | "succeeded" | "failed" | "abandoned" | "dropped";
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
  created_at: string;
}

/** Fields of a create. */
export interface CreateWebhookInput {
  url: string;
  events?: string[];
  secret?: string;
}

/** Fields of a PATCH: only those to change. */
export interface UpdateWebhookInput {
  url?: string;
  events?: string[];
  secret?: string;
  enabled?: boolean;
}

/** Filters of the delivery list. */
export interface DeliveryQuery {
  webhook_id?: string;
  status?: Delivery["status"];
  event_id?: string;
  limit?: number;
  before?: string;
}

const at = (id: string) => `/v1/webhooks/${encodeURIComponent(id)}`;

/** The webhook endpoints of spec 4.4 and the deliveries of the control API. */
export function webhooksClient(http: HttpClient) {
  return {
    /** POST /v1/webhooks; `replayed` is true when an Idempotency-Key returned an earlier endpoint. */
    create: async (input: CreateWebhookInput, options: { idempotencyKey?: string } = {}) => {
      const headers: Record<string, string> = options.idempotencyKey ? { "idempotency-key": options.idempotencyKey } : {};
      const response = await http.request<CreatedWebhook>("messaging", "POST", "/v1/webhooks", { body: input, headers });
      return { webhook: response.data, replayed: response.status === 200 };
    },
    /** GET /v1/webhooks: newest first. */
    list: async (options: { limit?: number; before?: string } = {}) => {
      const response = await http.request<WebhookResource[]>("messaging", "GET", "/v1/webhooks", { query: { ...options } });
      return { data: response.data, hasMore: response.hasMore ?? false };
    },
    /** GET /v1/webhooks/:id. */
    get: async (id: string) => (await http.request<WebhookResource>("messaging", "GET", at(id))).data,
    /** PATCH /v1/webhooks/:id. */
    update: async (id: string, input: UpdateWebhookInput) =>
      (await http.request<WebhookResource>("messaging", "PATCH", at(id), { body: input })).data,
    /** POST /v1/webhooks/:id/rotate-secret: the endpoint with its new secret. */
    rotateSecret: async (id: string) => (await http.request<WebhookWithSecret>("messaging", "POST", `${at(id)}/rotate-secret`)).data,
    /** DELETE /v1/webhooks/:id. */
    delete: async (id: string) => (await http.request<{ id: string; deleted: true }>("messaging", "DELETE", at(id))).data,
    /** GET /sandbox/v1/deliveries: newest first. */
    deliveries: async (query: DeliveryQuery = {}) => {
      const response = await http.request<Delivery[]>("messaging", "GET", "/sandbox/v1/deliveries", { query: { ...query } });
      return { data: response.data, hasMore: response.hasMore ?? false };
    },
    /** GET /sandbox/v1/deliveries/:id. */
    delivery: async (id: string) =>
      (await http.request<Delivery>("messaging", "GET", `/sandbox/v1/deliveries/${encodeURIComponent(id)}`)).data,
    /** The live stream of delivery attempts (server-sent `attempt` events); ApiError when refused. */
    attempts: async (options: { webhookId?: string; signal?: AbortSignal } = {}) =>
      http.ensureOk(
        await http.raw("messaging", "GET", "/sandbox/v1/deliveries/stream", {
          query: { webhook_id: options.webhookId },
          headers: { accept: "text/event-stream" },
          signal: options.signal,
        }),
      ),
  };
}
