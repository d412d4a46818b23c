import { z } from "zod";
import { graphemeCount } from "../lib/graphemes.js";
import { messageText, pageQuery, timestamp, uuid } from "./common.js";

/** The Chat resource (spec section 2): one-to-one threads and groups. */
export const chatResource = z
  .object({
    id: uuid,
    from_handle: z.string().meta({ description: "one of the account's numbers" }),
    remote_handle: z.string().nullable().meta({ description: "the contact (one-to-one threads); null for groups" }),
    is_group: z.boolean(),
    title: z.string().nullable(),
    participants: z.array(z.string()).meta({
      description:
        "everyone in the thread but from_handle: the contact of a one-to-one thread, or a group's members in joining order (the account's other numbers included)",
    }),
    last_message_at: timestamp,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Chat", description: "A conversation: a one-to-one thread or a group (spec section 2)" });
/** The Chat resource (spec section 2). */
export type ChatResource = z.output<typeof chatResource>;

/** GET /v1/chats query. */
export const listChatsQuery = pageQuery;

/** Group title limit (spec section 8): 100 characters, counted as people see them (grapheme clusters). */
const TITLE_MAX = 100;

/**
 * A group title: 1 to 100 characters (bounded by code units first, so segmenting never sees a huge
 * string), something visible (not only spaces or invisible format characters), no control
 * characters (a NUL or a bell in a name people read).
 */
export const groupTitle = z
  .string()
  .min(1, "must not be empty")
  .max(TITLE_MAX * 10, `must be at most ${TITLE_MAX} characters`)
  .refine((value) => !/^[\s\p{Cf}]*$/u.test(value), "must not be blank")
  .refine((value) => !/\p{Cc}/u.test(value), "must not contain control characters")
  .refine((value) => graphemeCount(value) <= TITLE_MAX, `must be at most ${TITLE_MAX} characters`)
  // The documents state the limit people count, not the code-unit guard above.
  .meta({
    maxLength: TITLE_MAX,
    description: `1 to ${TITLE_MAX} characters as people count them (grapheme clusters: a flag or a family emoji is one)`,
  });

/** Group addresses on create (spec section 8): 2 to 31 recipients. */
const GROUP_ADDRESSES = Object.freeze({ min: 2, max: 31 });

const addressesMessage = `must list ${GROUP_ADDRESSES.min} to ${GROUP_ADDRESSES.max} recipients`;

/** POST /v1/chats (spec 4.5): starts an iMessage group with an opening message. */
export const createChatBody = z.strictObject({
  from_handle: z.string().max(40).meta({ description: "one of the account's numbers that serves iMessage" }),
  addresses: z
    .array(z.string().max(320))
    .min(GROUP_ADDRESSES.min, addressesMessage)
    .max(GROUP_ADDRESSES.max, addressesMessage)
    .meta({ description: "the other members: iMessage phone numbers or emails" }),
  message: messageText(20_000).meta({ description: "the opening message: delivered, not recorded" }),
  title: groupTitle.nullish().meta({ description: "best effort: a naming failure leaves the group with title null" }),
});
/** The body of POST /v1/chats, as a client sends it. */
export type CreateChatInput = z.input<typeof createChatBody>;

/** PATCH /v1/chats/:id: the new title, or null to remove it. */
export const renameChatBody = z.strictObject({ title: groupTitle.nullable() });
/** The body of a rename. */
export type RenameChatInput = z.input<typeof renameChatBody>;

/** POST /v1/chats/:id/participants. */
export const addParticipantBody = z.strictObject({
  handle: z.string().max(320).meta({ description: "E.164 number or iMessage email" }),
});

/** POST /v1/chats/:id/typing. */
export const typingBody = z.strictObject({
  typing: z.boolean().meta({ description: "true shows the typing bubble, false hides it" }),
});

/** What the other members' phones show of the account in a thread (control API, GET /sandbox/v1/chats/:id/remote). */
export const chatRemoteView = z.object({
  conversation_id: uuid,
  typing: z.boolean().meta({ description: "the account's typing bubble is showing" }),
  typing_expires_at: timestamp
    .nullable()
    .meta({ description: "when the bubble hides by itself (60 s after typing: true)" }),
  last_read_at: timestamp.nullable().meta({ description: "when the account last marked the thread read" }),
});
/** What the other members' phones show of the account in a thread. */
export type ChatRemoteView = z.output<typeof chatRemoteView>;
