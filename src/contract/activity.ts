import { z } from "zod";
import { timestamp, uuid, uuidReference } from "./common.js";
import { reactionOutput } from "./reactions.js";
import { clockView } from "./control.js";

/**
 * What the inspector reads besides /v1 and the events: the activity stream's `changed` frame,
 * and the reactions standing on a thread's messages (docs/control-api.md, "Activity").
 */

/** The data of a `changed` frame of GET /sandbox/v1/activity/stream: something was written. */
export const activityChange = z
  .object({ clock: clockView })
  .meta({ id: "ActivityChange", description: "Something in the sandbox changed; the clock as it is now" });
/** The data of a `changed` frame. */
export type ActivityChange = z.output<typeof activityChange>;

/** A reaction standing on a message: a contact's (message.reaction) or the account's (POST /v1/messages/:id/react, once landed). */
export const reactionView = z
  .object({
    message_id: uuid,
    from: z.string().meta({ description: "who reacted: a contact's handle, or the account's number" }),
    side: z.enum(["contact", "account"]),
    reaction: reactionOutput,
    at: timestamp.meta({ description: "when it landed" }),
  })
  .meta({ id: "Reaction" });
/** A reaction standing on a message. */
export type ReactionView = z.output<typeof reactionView>;

/** GET /sandbox/v1/reactions query. */
export const listReactionsQuery = z.object({ conversation_id: uuidReference.meta({ description: "the thread" }) });
