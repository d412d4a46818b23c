import type { AccountTables } from "../accounts/index.js";
import type { AttachmentTables } from "../attachments/index.js";
import type { ConversationTables } from "../conversations/index.js";
import type { CoreTables } from "../core/index.js";
import type { MessageTables } from "../messages/index.js";
import type { WorldTables } from "../world/index.js";
import type { WebhookTables } from "../tables/webhooks.js";
import type { OtpTables } from "../tables/otp.js";

export type * from "../tables/webhooks.js";
export type * from "../tables/otp.js";

/** Every table, as kysely sees it. */
export interface Database
  extends CoreTables,
    AccountTables,
    WorldTables,
    ConversationTables,
    MessageTables,
    AttachmentTables,
    WebhookTables,
    OtpTables {}
