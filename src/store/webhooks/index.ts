/** The webhooks' rows: endpoints, deliveries of events to them, and each delivery's attempts. */
export {
  findLiveWebhook,
  findWebhookById,
  insertWebhook,
  listEnabledWebhooks,
  listLiveWebhooks,
  updateWebhookRow,
  type WebhookRow,
} from "./endpoints.js";
export {
  countAttempts,
  findAttemptWork,
  findDelivery,
  findDeliveryWithAttempts,
  insertAttempt,
  insertDelivery,
  listAttempts,
  listDeliveryRows,
  listPendingDeliveries,
  saveDeliveryState,
  setDeliveryChaos,
  type AttemptRow,
  type AttemptWork,
  type DeliveryRow,
} from "./deliveries.js";
export { insertNextAttempt, savePendingDeliveryState } from "./pending-attempt.js";
export type { WebhookTables } from "./tables.js";
