import { listReactionsQuery, type ReactionView } from "../../contract/activity.js";
import type { EventPayload } from "../../contract/events.js";
import { isoTime } from "../../lib/clock.js";
import { parseInput } from "../../lib/validation.js";
import { listEventPayloadsOfType } from "../../store/core/index.js";
import { listLandedReactions } from "../../store/messages/index.js";
import { conversationForField } from "../conversations/index.js";
import type { DomainContext } from "../core/index.js";

export type { ReactionView };

interface ReactionChange {
  view: ReactionView;
  removed: boolean;
  at: number;
}

/**
 * The reactions standing on a thread's messages (GET /sandbox/v1/reactions), as both phones
 * show them: the contacts' (their message.reaction events) and the account's (API reactions
 * that landed). Each person's reaction counts once; a later `remove` takes it away.
 */
export function listThreadReactions(
  ctx: DomainContext,
  accountId: string,
  query: Record<string, string>,
): ReactionView[] {
  const { conversation_id } = parseInput(listReactionsQuery, { conversation_id: query.conversation_id }, "query");
  const thread = conversationForField(ctx, accountId, conversation_id, "conversation_id");
  const changes: ReactionChange[] = [];
  for (const row of listEventPayloadsOfType(ctx.db, accountId, "message.reaction")) {
    const payload = JSON.parse(row.payload) as EventPayload<"message.reaction">;
    if (payload.conversation_id !== thread.id) continue;
    const view: ReactionView = {
      message_id: payload.message_id,
      from: payload.from,
      side: "contact",
      reaction: payload.reaction,
      at: isoTime(row.created_at),
    };
    changes.push({ view, removed: payload.removed, at: row.created_at });
  }
  for (const action of listLandedReactions(ctx.db, thread.id)) {
    const view: ReactionView = {
      message_id: action.message_id,
      from: action.number_handle,
      side: "account",
      reaction: action.reaction ?? "",
      at: isoTime(action.updated_at),
    };
    changes.push({ view, removed: action.remove === 1, at: action.updated_at });
  }
  // Replayed in the order they landed; a stable sort keeps each source's own order on ties.
  const standing = new Map<string, ReactionView>();
  for (const change of changes.sort((a, b) => a.at - b.at)) {
    const key = `${change.view.message_id} ${change.view.from} ${change.view.reaction}`;
    if (change.removed) standing.delete(key);
    else standing.set(key, change.view);
  }
  return [...standing.values()];
}
