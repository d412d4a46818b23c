/** Rows of the webhook tables (endpoints, deliveries, attempts); filled in by the webhooks issue. */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface WebhookTables {}
