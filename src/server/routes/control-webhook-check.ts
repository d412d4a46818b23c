import { checkWebhookBody, webhookCheckReport } from "../../contract/webhook-check.js";
import { checkWebhookHandler } from "../../domain/webhooks/index.js";
import { listAccountNumbers } from "../../domain/world/index.js";
import { ok, type Route } from "../route.js";

/** POST /sandbox/v1/webhooks/check: grade the user's webhook handler (docs/check.md). */
export const controlWebhookCheckRoutes: Route[] = [
  {
    method: "POST",
    path: "/sandbox/v1/webhooks/check",
    requiresBody: { example: '{ "url": "http://127.0.0.1:3000/webhooks", "secret": "whsec_…" }' },
    doc: {
      tag: "Sandbox: webhook deliveries",
      summary: "Check a webhook handler",
      description:
        "Sends a fixed battery of requests to your handler, one at a time: a valid freshly signed event, the same event again, a body changed after signing, another secret, a timestamp 301 s in the past and in the future, no signature header, a header without v1, a v1 that is not hex, message.read before message.delivered of one message, and a payload with an unknown field. Each answer is graded: a 2xx where a correct handler accepts, anything else where it refuses, and every answer within the acknowledgement window (10 s, the webhook_timeout_ms setting). The requests are signed as deliveries are, with the secret given, and carry X-Msgctl-Event-Id, X-Msgctl-Attempt and X-Msgctl-Check (the probe's name). The answer comes once every probe was answered or timed out. Probes are not events: nothing is recorded as a delivery and no state changes. The URL follows the webhook URL rules, but loopback URLs are allowed even under --strict-urls.",
      body: checkWebhookBody,
      responses: { 200: { description: "every probe with its verdict", schema: webhookCheckReport } },
      errors: [422],
      errorCodes: {
        400: {
          invalid_request: "url or secret missing or of the wrong type, or the secret not 16-200 characters",
          invalid_url: "the URL breaks the webhook URL rules (loopback excepted)",
        },
        422: {
          unreachable:
            "the handler could not be reached at all: its name does not resolve, or the first probe found no connection",
        },
      },
    },
    async handler({ ctx, account, body }) {
      // The probes' messages name one of the account's numbers, as real events would.
      const handle = listAccountNumbers(ctx, account.id)[0]?.handle;
      return ok(await checkWebhookHandler(ctx, body(), { handle }));
    },
  },
];
