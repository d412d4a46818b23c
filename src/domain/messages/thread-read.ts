import type { DomainContext } from "../core/index.js";
import {
  conversationForPath,
  readOrTypingThread,
  setChatReadAt,
  toChat,
  type ChatResource,
} from "../conversations/index.js";
import { applyToConversation } from "./status-table.js";

/**
 * POST /v1/chats/:id/read (spec 4.5): marks the thread read, so its contacts see read receipts:
 * every inbound message not read yet becomes `read` (read_at now). No event: webhooks report the
 * other side's activity. 409 on SMS threads and group MMS threads.
 */
export function markChatRead(ctx: DomainContext, accountId: string, id: string): ChatResource {
  const row = conversationForPath(ctx, accountId, id);
  const group = readOrTypingThread(ctx, row, "Read receipts");
  ctx.db.transaction(() => {
    setChatReadAt(ctx, row.id);
    applyToConversation(ctx, row.id, "inbound", "thread_read");
  });
  return toChat(ctx, row, group);
}
