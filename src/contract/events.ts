import { z } from "zod";
import { channel, queryNumber, timestamp, uuid } from "./common.js";
import { EVENT_TYPES, type EventType } from "./names.js";
import { reactionOutput } from "./reactions.js";
import { MESSAGE_STATUSES } from "./statuses.js";

/** When each event fires (spec section 6), for the OpenAPI document's webhooks. */
export const EVENT_DESCRIPTIONS = {
  "message.received": "A contact sent a message (text and/or media) to one of the account's numbers.",
  "message.sent": "An outbound message left the queue and was sent.",
  "message.delivered": "The recipient's device acknowledged delivery.",
  "message.read": "The recipient read the message (read receipts on).",
  "message.edited":
    "A message was edited (iMessage or WhatsApp), a contact's or the account's own through the API; the stored message holds the new text.",
  "message.failed": "An outbound message failed for good; its error says why.",
  "message.reaction":
    "A contact reacted to one of the account's messages (a tapback or an emoji), or removed a reaction (removed: true).",
  "conversation.typing": "A contact started or stopped typing (typing: true or false).",
  "conversation.renamed": "A group chat's title changed (title null: removed).",
} as const satisfies Record<EventType, string>;

// --- Payloads: exactly what a webhook receiver gets (spec section 6) ---

/** message.received (spec section 6, payload table). */
const receivedPayload = z
  .object({
    type: z.literal("message.received"),
    conversation_id: uuid,
    message_id: uuid,
    from: z.string().meta({ description: "the individual sender, never the group; E.164 on WhatsApp too" }),
    to: z.string().meta({ description: "the account's number" }),
    text: z.string().nullable(),
    channel,
    has_attachments: z.boolean(),
    created_at: timestamp,
    is_group: z.literal(true).optional().meta({ description: "group messages only (absent for one-to-one)" }),
    metadata: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: "sender_handle, or sender_jid on WhatsApp" }),
  })
  .meta({ id: "MessageReceived" });

/** The fields of every outbound lifecycle event (message.sent, delivered, read, failed). */
const lifecycleShape = {
  message_id: uuid,
  conversation_id: uuid,
  status: z.enum(MESSAGE_STATUSES),
  channel: channel.nullable(),
  from: z.string().meta({ description: "the account's number" }),
  to: z
    .string()
    .optional()
    .meta({ description: "the recipient; absent for group messages (the group is conversation_id)" }),
  is_group: z.literal(true).optional().meta({ description: "group messages only (absent for one-to-one)" }),
  error: z.string().nullable().optional().meta({ description: "message.failed: why" }),
  sent_at: timestamp.optional(),
  delivered_at: timestamp.optional(),
  read_at: timestamp.optional(),
};

/** message.sent. */
const sentPayload = z.object({ type: z.literal("message.sent"), ...lifecycleShape }).meta({ id: "MessageSent" });
/** message.delivered. */
const deliveredPayload = z
  .object({ type: z.literal("message.delivered"), ...lifecycleShape })
  .meta({ id: "MessageDelivered" });
/** message.read. */
const readPayload = z.object({ type: z.literal("message.read"), ...lifecycleShape }).meta({ id: "MessageRead" });
/** message.failed (its `error` says why). */
const failedPayload = z.object({ type: z.literal("message.failed"), ...lifecycleShape }).meta({ id: "MessageFailed" });

/** message.edited (spec section 6, payload table). */
const editedPayload = z
  .object({
    type: z.literal("message.edited"),
    conversation_id: uuid,
    message_id: uuid,
    text: z.string().nullable(),
    edited_at: timestamp.nullable(),
  })
  .meta({ id: "MessageEdited" });

/** message.reaction: `message_id` is the message reacted to. */
const reactionPayload = z
  .object({
    type: z.literal("message.reaction"),
    message_id: uuid,
    conversation_id: uuid,
    reaction: reactionOutput,
    removed: z.boolean(),
    from: z.string(),
  })
  .meta({ id: "MessageReaction" });

/** conversation.typing. */
const typingPayload = z
  .object({
    type: z.literal("conversation.typing"),
    conversation_id: uuid,
    typing: z.boolean(),
    from: z.string(),
  })
  .meta({ id: "ConversationTyping" });

/** conversation.renamed. */
const renamedPayload = z
  .object({
    type: z.literal("conversation.renamed"),
    conversation_id: uuid,
    title: z.string().nullable(),
    from: z.string().optional().meta({ description: "the member who renamed it, when a contact did" }),
  })
  .meta({ id: "ConversationRenamed" });

/** Every payload schema by event name. */
export const eventPayloads = {
  "message.received": receivedPayload,
  "message.sent": sentPayload,
  "message.delivered": deliveredPayload,
  "message.read": readPayload,
  "message.edited": editedPayload,
  "message.failed": failedPayload,
  "message.reaction": reactionPayload,
  "conversation.typing": typingPayload,
  "conversation.renamed": renamedPayload,
} satisfies { [K in EventType]: z.ZodType<EventPayloads[K]> };

/** Every event's payload by event name. */
export interface EventPayloads {
  "message.received": z.output<typeof receivedPayload>;
  "message.sent": z.output<typeof sentPayload>;
  "message.delivered": z.output<typeof deliveredPayload>;
  "message.read": z.output<typeof readPayload>;
  "message.edited": z.output<typeof editedPayload>;
  "message.failed": z.output<typeof failedPayload>;
  "message.reaction": z.output<typeof reactionPayload>;
  "conversation.typing": z.output<typeof typingPayload>;
  "conversation.renamed": z.output<typeof renamedPayload>;
}

/** The payload of an event of type `T`: what webhook receivers get. */
export type EventPayload<T extends EventType = EventType> = EventPayloads[T];

/** An event as the control API shows it (tail, wait, the event stream, `events()`). */
export interface EventView<T extends EventType = EventType> {
  id: string;
  seq: number;
  type: T;
  created_at: string;
  payload: EventPayload<T>;
}

/** The event view schema, for the OpenAPI document. */
export const eventView = z
  .object({
    id: uuid,
    seq: z.number().int().meta({ description: "position in the sandbox's outbox; resume a stream after it" }),
    type: z.enum(EVENT_TYPES),
    created_at: timestamp,
    payload: z.union(Object.values(eventPayloads)),
  })
  .meta({ id: "Event", description: "An event as the control API shows it; payload is what webhook receivers get" });

/** GET /sandbox/v1/events/stream query. */
export const streamEventsQuery = z.object({
  types: z.string().max(1_000).optional().meta({ description: "comma-separated event names to keep" }),
  after: queryNumber(
    z.number({ message: "must be a whole number" }).int("must be a whole number").min(0).optional(),
  ).meta({ description: "replay the events after this seq first" }),
});

/** GET /sandbox/v1/events query: events after a sequence number, oldest first. */
export const listEventsQuery = z.object({
  after: queryNumber(
    z.number({ message: "must be a whole number" }).int("must be a whole number").min(0).default(0),
  ).meta({ description: "sequence number to list after (0: from the start)" }),
  limit: queryNumber(
    z
      .number({ message: "must be a whole number from 1 to 100" })
      .int("must be a whole number from 1 to 100")
      .min(1, "must be from 1 to 100")
      .max(100, "must be from 1 to 100")
      .default(100),
  ),
  types: z
    .string()
    .max(1_000)
    .optional()
    .meta({ description: "comma-separated event names to keep", example: "message.sent,message.read" }),
  order: z
    .enum(["asc", "desc"])
    .default("asc")
    .meta({ description: "asc: oldest first (for resuming after a seq); desc: newest first" }),
});
