import { z } from "zod";
import { isUuid } from "../lib/ids.js";
import { attachmentResource } from "./attachments.js";
import { channel, messageText, pageQuery, timestamp, uuid, uuidReference } from "./common.js";
import { reactionInput } from "./reactions.js";
import { MESSAGE_STATUSES } from "./statuses.js";

/** One member's receipt of an outbound group message: delivered and read per member. */
const groupReceipt = z.object({
  handle: z.string(),
  delivered_at: timestamp
    .nullable()
    .meta({ description: "null until that member's device acknowledges (never, when unreachable)" }),
  read_at: timestamp.nullable(),
});
/** One member's receipt of an outbound group message. */
export type GroupReceipt = z.output<typeof groupReceipt>;

/** The Message resource (spec section 2). */
export const messageResource = z
  .object({
    id: uuid,
    conversation_id: uuid,
    direction: z.enum(["outbound", "inbound"]),
    status: z.enum(MESSAGE_STATUSES),
    channel: channel.nullable().meta({ description: "null until sent" }),
    text: z.string().nullable().meta({ description: "latest text (reflects edits)" }),
    effect: z.string().nullable().meta({ description: "iMessage effect id" }),
    reply_to: uuid.nullable(),
    error: z.string().nullable().meta({ description: "reason when status is failed" }),
    metadata: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: "group/inbound messages: sender_handle (iMessage/SMS) or sender_jid (WhatsApp)" }),
    attachments: z
      .array(attachmentResource)
      .meta({ description: "the message's attachments, in order; empty when none" }),
    sent_at: timestamp.nullable(),
    delivered_at: timestamp.nullable(),
    read_at: timestamp.nullable(),
    edited_at: timestamp.nullable(),
    created_at: timestamp,
    recipients: z.array(groupReceipt).optional().meta({
      description:
        "outbound group messages only: each member it was sent to, with that member's receipts (empty until sent)",
    }),
  })
  .meta({ id: "Message", description: "A message (spec section 2)" });
/** The Message resource (spec section 2). */
export type MessageResource = z.output<typeof messageResource>;

const TEXT_MAX = 20_000;
const bodyUuid = z.string().max(36, "must be a UUID").refine(isUuid, "must be a UUID");

/** The body of POST /v1/messages (spec 4.3); null counts as absent. Cross-field rules live in the domain. */
export const sendMessageBody = z.strictObject({
  to: z
    .string()
    .max(320)
    .nullish()
    .meta({ description: "E.164 number or iMessage email; with from_handle unless conversation_id is set" }),
  from_handle: z.string().max(40).nullish().meta({ description: "one of the account's numbers" }),
  conversation_id: uuidReference
    .nullish()
    .meta({ description: "send into an existing thread; exclusive with to and from_handle" }),
  text: messageText(TEXT_MAX).nullish(),
  attachment_ids: z.array(bodyUuid).max(10, "at most 10 attachments per message").nullish(),
  reply_to: bodyUuid.nullish(),
  effect: z
    .string()
    .min(1, "must not be empty")
    .max(200)
    .nullish()
    .meta({ description: "iMessage bubble/screen effect id" }),
  channel: z
    .literal("whatsapp", { message: 'the only value is "whatsapp" (iMessage or SMS is chosen per recipient)' })
    .nullish(),
  voice_memo: z.boolean().nullish(),
  media_quality: z.enum(["fit", "original"]).nullish(),
});
/** The body of POST /v1/messages, validated. */
export type SendMessageBody = z.output<typeof sendMessageBody>;
/** The body of POST /v1/messages, as a client sends it. */
export type SendMessageInput = z.input<typeof sendMessageBody>;

/** POST /v1/messages/:id/react. The reaction rule itself (named or one emoji) is the domain's. */
export const reactBody = z.strictObject({
  reaction: reactionInput.meta({ example: "love" }),
  remove: z.boolean().optional(),
});

/** POST /v1/messages/:id/edit. */
export const editBody = z.strictObject({ text: messageText(TEXT_MAX) });

/** GET /v1/messages query. */
export const listMessagesQuery = pageQuery.extend({ conversation_id: uuidReference.optional() });

/** GET /v1/handles/availability query. */
export const availabilityQuery = z.object({
  handle: z.string().max(320).meta({ description: "E.164 number or iMessage email", example: "+14155550191" }),
});

/** Handle availability (spec section 2, GET /v1/handles/availability). */
export const handleAvailability = z
  .object({
    handle: z.string(),
    imessage: z.boolean().meta({ description: "registered with iMessage" }),
    channel: z.enum(["imessage", "sms"]).meta({ description: "the channel a send would use" }),
  })
  .meta({ id: "HandleAvailability" });
/** Handle availability (spec section 2). */
export type HandleAvailability = z.output<typeof handleAvailability>;
