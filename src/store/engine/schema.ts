import type { AccountTables } from "../accounts/index.js";
import type { AttachmentTables } from "../attachments/index.js";
import type { ConversationTables } from "../conversations/index.js";
import type { ChaosTables } from "../chaos/index.js";
import type { CoreTables } from "../core/index.js";
import type { MessageTables } from "../messages/index.js";
import type { OtpTables } from "../otp/index.js";
import type { WebhookTables } from "../webhooks/index.js";
import type { WorldTables } from "../world/index.js";

/**
 * Every table, as kysely sees it: each concept folder declares its own (`<concept>/tables.ts`).
 * The migrations (`migrations/`) make them, in the order they were added.
 */
export interface Database
  extends CoreTables,
    AccountTables,
    WorldTables,
    ConversationTables,
    MessageTables,
    AttachmentTables,
    WebhookTables,
    OtpTables,
    ChaosTables {}
