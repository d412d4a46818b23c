/** msgctl as a library: start a sandbox in-process, talk to it, verify webhooks. */
export {
  startSandbox,
  type EventMatch,
  type StartSandboxOptions,
  type StartedSandbox,
  type WaitForEventOptions,
} from "./runtime/start-sandbox.js";
export { createClient, type MsgctlClient } from "./client/client.js";
export type { NewAccount } from "./client/accounts.js";
export type { UploadProgress, UploadSource } from "./client/attachments.js";
export type {
  DeliveryListOptions,
  MessageListOptions,
  OtpTextListOptions,
  PageOptions,
  DeliveryQuery,
  ListMessagesQuery,
  OtpTextsQuery,
  PageQuery,
} from "./client/list-options.js";
export { createAccount, type IsolatedAccount } from "./client/isolated-account.js";
export { ApiError, ConnectionError, type ClientOptions } from "./client/http.js";
/** What `startSandbox` throws for a bad option or fixture: `code` (`invalid_request`), `status`, `message`. */
export { AppError } from "./lib/app-error.js";
export type * from "./contract/types.js";
export { EVENT_TYPES } from "./contract/names.js";
export { parseDuration } from "./lib/duration.js";
export { verifyWebhook, type VerifyOptions, type VerifyResult, type VerifyFailure } from "./lib/webhook-signature.js";
