import { z } from "zod";
import { isUuid } from "../lib/ids.js";
import { groupTitle } from "./chats.js";
import { channel, messageText, uuidReference } from "./common.js";
import { reactionInput } from "./reactions.js";

/** The traits of a contact that decide routing. */
export const contactTraits = z.object({
  imessage: z.boolean().meta({ description: "registered with iMessage" }),
  platform: z.enum(["ios", "android"]),
  whatsapp: z.boolean(),
  reachable: z.boolean().meta({ description: "false: messages stay sent, never delivered" }),
  read_receipts: z.boolean(),
});
/** The traits of a contact that decide routing. */
export type ContactTraits = z.output<typeof contactTraits>;

/** A contact as the control API shows it: its profile, where it comes from, what a magic number is for. */
export const contactView = contactTraits
  .extend({
    handle: z.string(),
    source: z
      .enum(["contact", "magic", "default"])
      .meta({ description: "set on record, a magic number, or the default profile" }),
    description: z.string().optional().meta({ description: "magic numbers: what they are for" }),
  })
  .meta({ id: "Contact" });
/** A contact as the control API shows it. */
export type ContactView = z.output<typeof contactView>;

/** PATCH /sandbox/v1/contacts/:handle: the traits to change. */
export const contactChanges = contactTraits.partial().strict();

const text = messageText(20_000);
const handleField = z.string().max(320);

const attachmentId = z.string().max(36, "must be a UUID").refine(isUuid, "must be a UUID");

/** POST /sandbox/v1/simulate/inbound: a contact sends a message to one of the account's numbers, or into a group. */
export const inboundBody = z.strictObject({
  from: handleField,
  to: z.string().max(40).optional().meta({ description: "one of the account's numbers; optional with group" }),
  text: text.optional().meta({ description: "text or attachment_ids (or both) required" }),
  channel: channel.optional(),
  attachment_ids: z
    .array(attachmentId)
    .min(1, "must list at least one attachment (or leave it out)")
    .max(10, "at most 10 attachments per message")
    .optional()
    .meta({ description: "uploads (POST /v1/attachments) the contact sends; the message claims them" }),
  voice_memo: z.boolean().optional().meta({ description: "the audio attachments are voice notes" }),
  duration_seconds: z
    .number()
    .positive("must be more than 0")
    .max(86_400, "must be at most 86400")
    .optional()
    .meta({ description: "WhatsApp audio and video: the length to report instead of the one read from the file" }),
  members: z
    .array(handleField)
    .min(1, "must list at least one other member")
    .max(30, "a group has at most 32 members: from, to and 30 others")
    .optional()
    .meta({ description: "a new group: every participant other than from and to" }),
  group: uuidReference.optional().meta({ description: "an existing group: one of its conversations' id" }),
});
/** A contact's message to one of the account's numbers. */
export type InboundInput = z.input<typeof inboundBody>;

/** POST /sandbox/v1/simulate/reaction. */
export const simulateReactionBody = z.strictObject({
  message_id: uuidReference,
  from: handleField,
  reaction: reactionInput,
  remove: z.boolean().optional(),
});
/** A contact's reaction. */
export type SimulateReactionInput = z.input<typeof simulateReactionBody>;

/** POST /sandbox/v1/simulate/typing: in the one-to-one thread with `to`, or in the thread `conversation_id` (groups). */
export const simulateTypingBody = z.strictObject({
  from: handleField,
  to: z.string().max(40).optional(),
  conversation_id: uuidReference.optional(),
  typing: z.boolean().optional(),
});
/** A contact starts or stops typing. */
export type SimulateTypingInput = z.input<typeof simulateTypingBody>;

/** POST /sandbox/v1/simulate/edit. */
export const simulateEditBody = z.strictObject({ message_id: uuidReference, text });
/** A contact edits their own message. */
export type SimulateEditInput = z.input<typeof simulateEditBody>;

/** POST /sandbox/v1/messages/:id/fail. */
export const simulateFailBody = z
  .strictObject({ error: z.string().min(1, "must not be empty").max(1_000).optional() })
  .optional();

/** POST /sandbox/v1/simulate/rename: a member renames a group (null removes the title). */
export const simulateRenameBody = z.strictObject({
  conversation_id: uuidReference,
  title: groupTitle.nullable(),
  from: handleField
    .optional()
    .meta({ description: "the member who renames it; default: the first member who is a contact" }),
});
/** A member renames a group. */
export type SimulateRenameInput = z.input<typeof simulateRenameBody>;

/** POST /sandbox/v1/simulate/participants: a member adds or removes someone (a member may remove itself: it leaves). */
export const simulateParticipantsBody = z.strictObject({
  conversation_id: uuidReference,
  action: z.enum(["add", "remove"]),
  handle: handleField,
  from: handleField,
});
/** A member adds or removes someone. */
export type SimulateParticipantsInput = z.input<typeof simulateParticipantsBody>;
