/**
 * The wire contract: every JSON shape that crosses a host, defined once with zod. The domain
 * validates input with these schemas and builds its views to these types, the typed client
 * reads them, and the OpenAPI document is generated from them.
 */
export * from "./common.js";
export * from "./statuses.js";
export * from "./numbers.js";
export * from "./messages.js";
export * from "./attachments.js";
export * from "./chats.js";
export * from "./names.js";
export * from "./events.js";
export * from "./webhooks.js";
export * from "./check-probes.js";
export * from "./webhook-check.js";
export * from "./world.js";
export * from "./otp.js";
export * from "./control.js";
export * from "./fixture.js";
export * from "./settings.js";
export * from "./accounts.js";
export * from "./activity.js";
export * from "./reactions.js";
export * from "./chaos.js";
export * from "./snapshots.js";
