/**
 * Webhooks (spec 4.4, 5, 6): endpoints and their secrets, the URL policy, and the deliveries of
 * every event with the retry ladder, signed attempts and the delivery status table.
 */
import type { DomainModule } from "../core/index.js";
import { runDeliveryAttempt } from "./attempt.js";
import { RELEASE_JOB, runRelease } from "./chaos-deliveries.js";
import { fanOutToWebhooks } from "./deliveries.js";
import { ATTEMPT_JOB } from "./new-delivery.js";

export { releaseAllHeld } from "./chaos-deliveries.js";
export { CHAOS_HEADER } from "./attempt.js";
export { closeWebhookConnections, DeliveryConnections, deliveryAgentLoaded } from "./connections.js";
export {
  attemptTargetOf,
  getDelivery,
  getDeliveryBody,
  listDeliveries,
  listEventDeliveries,
  type DeliveryView,
} from "./deliveries.js";
export {
  createWebhook,
  deleteWebhook,
  getWebhook,
  isAccountWebhook,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
} from "./endpoints.js";
export { resendDelivery } from "./resend.js";
export { checkWebhookHandler } from "./handler-check.js";
export { postOverPool, postWebhook } from "./http.js";
export { pinnedLookup } from "./pinned-lookup.js";
export { getRetryLadder, MAX_ATTEMPTS, RETRY_WAITS_MS } from "./retry-ladder.js";

/** What webhooks plug in: a delivery per subscribed endpoint for every event, and its attempts. */
export const webhooksModule: DomainModule = {
  name: "webhooks",
  jobs: { [ATTEMPT_JOB]: runDeliveryAttempt, [RELEASE_JOB]: runRelease },
  fanOuts: [fanOutToWebhooks],
};
