import type {
  CheckWebhookInput,
  CreatedWebhook,
  CreateWebhookInput,
  Delivery,
  RetryLadder,
  UpdateWebhookInput,
  WebhookCheckReport,
  WebhookResource,
  WebhookWithSecret,
} from "../contract/types.js";
import type { HttpClient } from "./http.js";
import { pageQuery, type DeliveryListOptions, type PageOptions } from "./list-options.js";

const at = (id: string) => `/v1/webhooks/${encodeURIComponent(id)}`;

/** The webhook endpoints of spec 4.4 and the deliveries of the control API. */
export function webhooksClient(http: HttpClient) {
  return {
    /** POST /v1/webhooks; `replayed` is true when an Idempotency-Key returned an earlier endpoint. */
    create: async (input: CreateWebhookInput, options: { idempotencyKey?: string } = {}) => {
      const headers: Record<string, string> = options.idempotencyKey
        ? { "idempotency-key": options.idempotencyKey }
        : {};
      const response = await http.request<CreatedWebhook>("messaging", "POST", "/v1/webhooks", {
        body: input,
        headers,
      });
      return { webhook: response.data, replayed: response.status === 200 };
    },
    /** GET /v1/webhooks: newest first. */
    list: async (options: PageOptions = {}) => {
      const response = await http.request<WebhookResource[]>("messaging", "GET", "/v1/webhooks", {
        query: pageQuery(options),
      });
      return { data: response.data, hasMore: response.hasMore ?? false };
    },
    /** GET /v1/webhooks/:id. */
    get: async (id: string) => (await http.request<WebhookResource>("messaging", "GET", at(id))).data,
    /** PATCH /v1/webhooks/:id. */
    update: async (id: string, input: UpdateWebhookInput) =>
      (await http.request<WebhookResource>("messaging", "PATCH", at(id), { body: input })).data,
    /** POST /v1/webhooks/:id/rotate-secret: the endpoint with its new secret. */
    rotateSecret: async (id: string) =>
      (await http.request<WebhookWithSecret>("messaging", "POST", `${at(id)}/rotate-secret`)).data,
    /** DELETE /v1/webhooks/:id. */
    delete: async (id: string) =>
      (await http.request<{ id: string; deleted: true }>("messaging", "DELETE", at(id))).data,
    /** GET /sandbox/v1/deliveries: newest first, filtered by endpoint, event or status. */
    deliveries: async (options: DeliveryListOptions = {}) => {
      const response = await http.request<Delivery[]>("messaging", "GET", "/sandbox/v1/deliveries", {
        query: {
          ...pageQuery(options),
          webhook_id: options.webhookId ?? options.webhook_id,
          event_id: options.eventId ?? options.event_id,
          status: options.status,
        },
      });
      return { data: response.data, hasMore: response.hasMore ?? false };
    },
    /** GET /sandbox/v1/deliveries/:id. */
    delivery: async (id: string) =>
      (await http.request<Delivery>("messaging", "GET", `/sandbox/v1/deliveries/${encodeURIComponent(id)}`)).data,
    /**
     * GET /sandbox/v1/deliveries/:id/body: the body every attempt POSTs, byte for byte, as text
     * (what a signature covers; save it for `webhooks verify --body-file`).
     */
    deliveryBody: async (id: string) =>
      (
        await http.ensureOk(await http.raw("messaging", "GET", `/sandbox/v1/deliveries/${encodeURIComponent(id)}/body`))
      ).text(),
    /** POST /sandbox/v1/deliveries/:id/resend: one more attempt now, outside the retry ladder. */
    resend: async (id: string) =>
      (await http.request<Delivery>("messaging", "POST", `/sandbox/v1/deliveries/${encodeURIComponent(id)}/resend`))
        .data,
    /** GET /sandbox/v1/webhooks/retry-ladder: the attempts a delivery gets and the waits before each retry. */
    retryLadder: async () =>
      (await http.request<RetryLadder>("messaging", "GET", "/sandbox/v1/webhooks/retry-ladder")).data,
    /**
     * POST /sandbox/v1/webhooks/check: sends a fixed battery of signed (and mis-signed) requests
     * to your own handler and grades each answer; `passed` is false when any probe failed.
     * ApiError `unreachable` (422) when nothing answers at the URL.
     */
    check: async (input: CheckWebhookInput) =>
      (await http.request<WebhookCheckReport>("messaging", "POST", "/sandbox/v1/webhooks/check", { body: input })).data,
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
