import type { AccountTables } from "../accounts/index.js";
import type { CoreTables } from "../core/index.js";
import type { WorldTables } from "../world/index.js";
import type { AttachmentTables } from "../tables/attachments.js";
import type { ConversationTables } from "../tables/conversations.js";
import type { MessagingTables } from "../tables/messaging.js";
import type { WebhookTables } from "../tables/webhooks.js";
import type { OtpTables } from "../tables/otp.js";

export type * from "../tables/messaging.js";
export type * from "../tables/webhooks.js";
export type * from "../tables/conversations.js";
export type * from "../tables/otp.js";
export type * from "../tables/attachments.js";

/** Every table, as kysely sees it. */
export interface Database
  extends CoreTables,
    AccountTables,
    WorldTables,
    MessagingTables,
    WebhookTables,
    ConversationTables,
    OtpTables,
    AttachmentTables {}
