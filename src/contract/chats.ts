import { z } from "zod";
import { pageQuery, timestamp, uuid } from "./common.js";

/** The Chat resource (spec section 2): one-to-one threads and groups. */
export const chatResource = z.object({
  id: uuid,
  from_handle: z.string().meta({ description: "one of the account's numbers" }),
  remote_handle: z.string().nullable().meta({ description: "the contact (one-to-one threads); null for groups" }),
  is_group: z.boolean(),
  title: z.string().nullable(),
  last_message_at: timestamp,
  created_at: timestamp,
  updated_at: timestamp,
}).meta({ id: "Chat", description: "A conversation: a one-to-one thread or a group (spec section 2)" });
/** The Chat resource (spec section 2). */
export type ChatResource = z.output<typeof chatResource>;

/** GET /v1/chats query. */
export const listChatsQuery = pageQuery;
