import type { JsonObject } from "../../contract/common.js";
import { typingBody, type ChatRemoteView, type ChatResource } from "../../contract/chats.js";
import { invalidState } from "../../lib/app-error.js";
import { isoTimeOrNull } from "../../lib/clock.js";
import { parseInput } from "../../lib/validation.js";
import { setLastReadAt, setTypingUntil, type ConversationRow } from "../../store/conversations/index.js";
import type { DomainContext } from "../core/index.js";
import { conversationForPath, threadChannel, toChat } from "./chats.js";
import { TYPING_BUBBLE_MS } from "./group-rules.js";
import { assertStillMember, groupOf, type Group } from "./groups.js";

/**
 * The thread read receipts and typing act on, and its group: 409 invalid_state on SMS threads and
 * group MMS threads, and for a number no longer in the group.
 */
export function readOrTypingThread(ctx: DomainContext, row: ConversationRow, what: string): Group | undefined {
  const group = groupOf(ctx, row);
  if (threadChannel(ctx, row, group) === "sms") {
    throw invalidState(
      `${what} exist on iMessage and WhatsApp threads only; this is ${group ? "a group MMS" : "an SMS"} thread`,
    );
  }
  if (group) assertStillMember(group, row);
  return group;
}

/** The account read the thread now: its read mark, which the contacts' phones show (GET …/remote). */
export function setChatReadAt(ctx: DomainContext, conversationId: string): void {
  setLastReadAt(ctx.db, conversationId, ctx.clock.now());
}

/**
 * POST /v1/chats/:id/typing (spec 4.5): `typing: true` shows the account's typing bubble on the
 * contacts' phones until it expires by itself 60 s later (or `typing: true` again renews it);
 * `typing: false` hides it at once. GET /sandbox/v1/chats/:id/remote shows it.
 */
export function setChatTyping(ctx: DomainContext, accountId: string, id: string, input: JsonObject): ChatResource {
  const row = conversationForPath(ctx, accountId, id);
  const body = parseInput(typingBody, input);
  const group = readOrTypingThread(ctx, row, "Typing indicators");
  ctx.db.transaction(() => setTypingUntil(ctx.db, row.id, body.typing ? ctx.clock.now() + TYPING_BUBBLE_MS : null));
  return toChat(ctx, row, group);
}

/** GET /sandbox/v1/chats/:id/remote: what the other members' phones show of the account now. */
export function chatRemoteView(ctx: DomainContext, accountId: string, id: string): ChatRemoteView {
  const row = conversationForPath(ctx, accountId, id);
  const typing = row.typing_until !== null && ctx.clock.now() < row.typing_until;
  return {
    conversation_id: row.id,
    typing,
    typing_expires_at: typing ? isoTimeOrNull(row.typing_until) : null,
    last_read_at: isoTimeOrNull(row.last_read_at),
  };
}
