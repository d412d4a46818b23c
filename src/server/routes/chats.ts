import {
  addParticipantBody,
  chatResource,
  createChatBody,
  listChatsQuery,
  renameChatBody,
  typingBody,
} from "../../contract/chats.js";
import {
  addChatParticipant,
  createGroupChat,
  getChat,
  listChats,
  removeChatParticipant,
  renameChat,
  setChatTyping,
} from "../../domain/conversations/index.js";
import { markChatRead } from "../../domain/messages/index.js";
import { ok, page, type Route } from "../route.js";

const TAG = "Conversations";
const id = { id: "the conversation's id" };
const theChat = { 200: { description: "the Chat", schema: chatResource } };

// The error codes of these routes (spec 7), by when they are answered.
const badBody = { invalid_request: "the body breaks a rule; the message names the field" };
const noChat = { not_found: "no such chat: a malformed or unknown id, or another account's" };
const groupChange = {
  not_a_group: "a one-to-one thread or a WhatsApp group: only iMessage groups are renamed or have members changed",
  invalid_state:
    "a group MMS thread (a member is not on iMessage); the chat's number is no longer a member, or offline",
};
const readOrTyping = {
  invalid_state: "an SMS thread or group MMS thread, or the chat's number is no longer a member of the group",
};

/** Conversations (spec 4.5): threads and groups, group creation and changes, read and typing. */
export const chatRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/chats",
    doc: {
      tag: TAG,
      summary: "List chats",
      description: "Newest activity first, paged on last_message_at.",
      query: listChatsQuery,
      responses: { 200: { description: "a page of Chats", schema: chatResource, list: true } },
      errorCodes: { 400: { invalid_request: "`limit` outside 1-100 or `before` not an ISO 8601 timestamp" } },
    },
    handler({ ctx, account, query }) {
      const { data, hasMore } = listChats(ctx, account.id, Object.fromEntries(query));
      return page(data, hasMore);
    },
  },
  {
    method: "POST",
    path: "/v1/chats",
    requiresBody: {
      example: '{ "from_handle": "+14155550101", "addresses": ["+14155550191", "+14155550150"], "message": "hi" }',
    },
    doc: {
      tag: TAG,
      summary: "Start an iMessage group",
      description:
        "With an opening message that is delivered but not recorded (no message, no event). Naming is best effort: a failure leaves `title` null. Only iMessage groups can be created.",
      body: createChatBody,
      headers: {
        "Idempotency-Key":
          "a repeated key returns the original group with 200 and creates nothing (per account and endpoint)",
      },
      responses: {
        201: { description: "the group's Chat", schema: chatResource },
        200: { description: "an idempotent replay: the original group", schema: chatResource },
      },
      errorCodes: {
        400: {
          invalid_request:
            "the body breaks a rule (`addresses` not 2 to 31 valid handles, `message` missing, `title` over 100 characters, …), an address is not on iMessage (the message names it), or the Idempotency-Key header is empty or over 255 characters",
          invalid_from_handle:
            "`from_handle` is not one of the account's numbers, or does not serve iMessage (a WhatsApp number)",
        },
        409: { invalid_state: "`from_handle` is offline: the opening message cannot be sent" },
      },
    },
    handler({ ctx, account, body, idempotencyKey }) {
      const result = createGroupChat(ctx, account.id, body(), idempotencyKey());
      return ok(result.chat, result.replayed ? 200 : 201);
    },
  },
  {
    method: "GET",
    path: "/v1/chats/:id",
    doc: { tag: TAG, summary: "Get a chat", params: id, responses: theChat, errorCodes: { 404: noChat } },
    handler: ({ ctx, account, params }) => ok(getChat(ctx, account.id, params.id ?? "")),
  },
  {
    method: "PATCH",
    path: "/v1/chats/:id",
    requiresBody: { example: '{ "title": "Weekend plans" }' },
    doc: {
      tag: TAG,
      summary: "Rename an iMessage group",
      description:
        "Fires conversation.renamed when the title changes. 409 not_a_group on one-to-one threads and WhatsApp groups; 409 invalid_state on group MMS threads.",
      params: id,
      body: renameChatBody,
      responses: theChat,
      errorCodes: { 400: badBody, 404: noChat, 409: groupChange },
    },
    handler: ({ ctx, account, params, body }) => ok(renameChat(ctx, account.id, params.id ?? "", body())),
  },
  {
    method: "POST",
    path: "/v1/chats/:id/participants",
    requiresBody: { example: '{ "handle": "+14155550150" }' },
    doc: {
      tag: TAG,
      summary: "Add a member to an iMessage group",
      description: "A synchronous verdict of the network. Adding a member already in changes nothing.",
      params: id,
      body: addParticipantBody,
      responses: theChat,
      errorCodes: {
        400: {
          invalid_request:
            "the body breaks a rule, or `handle` is not a valid handle or cannot join (not registered with iMessage); the message names the field",
        },
        404: noChat,
        409: { ...groupChange, invalid_state: `${groupChange.invalid_state}; or the group is full (32 members)` },
      },
    },
    handler: ({ ctx, account, params, body }) => ok(addChatParticipant(ctx, account.id, params.id ?? "", body())),
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
      errorCodes: {
        404: { not_found: `${noChat.not_found}; or the handle is not a member of the group` },
        409: { ...groupChange, invalid_state: `${groupChange.invalid_state}; or fewer than 3 members would remain` },
      },
    },
    handler: ({ ctx, account, params }) =>
      ok(removeChatParticipant(ctx, account.id, params.id ?? "", params.handle ?? "")),
  },
  {
    method: "POST",
    path: "/v1/chats/:id/read",
    doc: {
      tag: TAG,
      summary: "Mark a thread read",
      description:
        "Its contacts see read receipts. iMessage and WhatsApp threads; 409 invalid_state on SMS threads. Any body is ignored.",
      params: id,
      responses: theChat,
      errorCodes: { 404: noChat, 409: readOrTyping },
    },
    // Any body is ignored (docs/spec-decisions.md): clients that always send `{}` work.
    handler: ({ ctx, account, params }) => ok(markChatRead(ctx, account.id, params.id ?? "")),
  },
  {
    method: "POST",
    path: "/v1/chats/:id/typing",
    requiresBody: { example: '{ "typing": true }' },
    doc: {
      tag: TAG,
      summary: "Show or hide the typing bubble",
      description:
        "The bubble expires by itself 60 s after typing: true on the contacts' phones. iMessage and WhatsApp threads; 409 invalid_state on SMS threads.",
      params: id,
      body: typingBody,
      responses: theChat,
      errorCodes: { 400: badBody, 404: noChat, 409: readOrTyping },
    },
    handler: ({ ctx, account, params, body }) => ok(setChatTyping(ctx, account.id, params.id ?? "", body())),
  },
];
