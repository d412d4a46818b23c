import { addParticipantBody, chatResource, createChatBody, listChatsQuery, renameChatBody, typingBody } from "../../contract/chats.js";
import {
  addChatParticipant,
  createGroupChat,
  getChat,
  listChats,
  markChatRead,
  removeChatParticipant,
  renameChat,
  setChatTyping,
} from "../../domain/conversations/index.js";
import { ok, page, type Route } from "../route.js";

const TAG = "Conversations";
const id = { id: "the conversation's id" };
const theChat = { 200: { description: "the Chat", schema: chatResource } };

/** Conversations (spec 4.5): threads and groups, group creation and changes, read and typing. */
export const chatRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/chats",
    doc: { tag: TAG, summary: "List chats", description: "Newest activity first, paged on last_message_at.", query: listChatsQuery, responses: { 200: { description: "a page of Chats", schema: chatResource, list: true } } },
    handler({ ctx, account, query }) {
      const { data, hasMore } = listChats(ctx, account.id, Object.fromEntries(query));
      return page(data, hasMore);
    },
  },
  {
    method: "POST",
    path: "/v1/chats",
    doc: {
      tag: TAG,
      summary: "Start an iMessage group",
      description:
        "With an opening message that is delivered but not recorded (no message, no event). Naming is best effort: a failure leaves `title` null. Only iMessage groups can be created.",
      body: createChatBody,
      headers: { "Idempotency-Key": "a repeated key returns the original group with 200 and creates nothing (per account and endpoint)" },
      responses: { 201: { description: "the group's Chat", schema: chatResource }, 200: { description: "an idempotent replay: the original group", schema: chatResource } },
      errors: [409],
    },
    async handler({ ctx, account, json, header }) {
      const result = createGroupChat(ctx, account.id, await json(), header("idempotency-key"));
      return ok(result.chat, result.replayed ? 200 : 201);
    },
  },
  {
    method: "GET",
    path: "/v1/chats/:id",
    doc: { tag: TAG, summary: "Get a chat", params: id, responses: theChat },
    handler: ({ ctx, account, params }) => ok(getChat(ctx, account.id, params.id ?? "")),
  },
  {
    method: "PATCH",
    path: "/v1/chats/:id",
    doc: {
      tag: TAG,
      summary: "Rename an iMessage group",
      description: "Fires conversation.renamed when the title changes. 409 not_a_group on one-to-one threads and WhatsApp groups; 409 invalid_state on group MMS threads.",
      params: id,
      body: renameChatBody,
      responses: theChat,
      errors: [409],
    },
    handler: async ({ ctx, account, params, json }) => ok(renameChat(ctx, account.id, params.id ?? "", await json())),
  },
  {
    method: "POST",
    path: "/v1/chats/:id/participants",
    doc: { tag: TAG, summary: "Add a member to an iMessage group", description: "A synchronous verdict of the network.", params: id, body: addParticipantBody, responses: theChat, errors: [409] },
    handler: async ({ ctx, account, params, json }) => ok(addChatParticipant(ctx, account.id, params.id ?? "", await json())),
  },
  {
    method: "DELETE",
    path: "/v1/chats/:id/participants/:handle",
    doc: {
      tag: TAG,
      summary: "Remove a member from an iMessage group",
      description: "A synchronous verdict of the network; the chat's own number leaves.",
      params: { ...id, handle: "the member's E.164 number (the + may be left out) or email" },
      responses: theChat,
      errors: [409],
    },
    handler: ({ ctx, account, params }) => ok(removeChatParticipant(ctx, account.id, params.id ?? "", params.handle ?? "")),
  },
  {
    method: "POST",
    path: "/v1/chats/:id/read",
    doc: { tag: TAG, summary: "Mark a thread read", description: "Its contacts see read receipts. iMessage and WhatsApp threads; 409 invalid_state on SMS threads.", params: id, responses: theChat, errors: [409] },
    // Any body is ignored (docs/spec-decisions.md): clients that always send `{}` work.
    handler: ({ ctx, account, params }) => ok(markChatRead(ctx, account.id, params.id ?? "")),
  },
  {
    method: "POST",
    path: "/v1/chats/:id/typing",
    doc: {
      tag: TAG,
      summary: "Show or hide the typing bubble",
      description: "The bubble expires by itself 60 s after typing: true on the contacts' phones. iMessage and WhatsApp threads; 409 invalid_state on SMS threads.",
      params: id,
      body: typingBody,
      responses: theChat,
      errors: [409],
    },
    handler: async ({ ctx, account, params, json }) => ok(setChatTyping(ctx, account.id, params.id ?? "", await json())),
  },
];
