import {
  simulateEdit,
  simulateFailure,
  simulateInbound,
  simulateProgress,
  simulateReaction,
  simulateTyping,
} from "../../domain/simulate/index.js";
import { chatResource } from "../../contract/chats.js";
import { messageResource } from "../../contract/messages.js";
import {
  inboundBody,
  simulateEditBody,
  simulateFailBody,
  simulateReactionBody,
  simulateTypingBody,
} from "../../contract/world.js";
import { ok, type Route } from "../route.js";

const TAG = "Sandbox: simulate";
const message = (description: string) => ({ 200: { description, schema: messageResource } });
const id = { id: "the outbound message's id" };

/** The simulate actions of the control API: contacts' activity, forced progress. */
export const controlSimulateRoutes: Route[] = [
  {
    method: "POST",
    path: "/sandbox/v1/simulate/inbound",
    requiresBody: { example: '{ "from": "+14155550191", "to": "+14155550101", "text": "hi" }' },
    doc: {
      tag: TAG,
      summary: "A contact sends a message",
      description:
        "Creates the thread on first contact and fires message.received. With `members`, the contact starts a new group with `to` and them; with `group`, writes into an existing one. In a group, each of the account's numbers in it gets its own copy in its own conversation (one message.received each); the answer is `to`'s copy.",
      body: inboundBody,
      responses: { 201: { description: "the inbound Message", schema: messageResource } },
      errorCodes: {
        400: {
          invalid_request:
            "the body breaks a rule, a handle is not valid, `to` or `group` is not the account's, or a member cannot be in a group of that kind; the message names the field",
          invalid_attachments:
            "an attachment id is unknown, another account's, not uploaded yet, or already claimed by a message",
        },
        409: { invalid_state: "`group` is a conversation of a number that is no longer a member of the group" },
      },
    },
    handler: ({ ctx, account, body }) => ok(simulateInbound(ctx, account.id, body()), 201),
  },
  {
    method: "POST",
    path: "/sandbox/v1/simulate/reaction",
    requiresBody: { example: '{ "message_id": "…", "from": "+14155550191", "reaction": "love" }' },
    doc: {
      tag: TAG,
      summary: "A contact reacts",
      description: "To one of the account's delivered messages; fires message.reaction.",
      body: simulateReactionBody,
      responses: message("the message reacted to"),
      errors: [409],
    },
    handler: ({ ctx, account, body }) => ok(simulateReaction(ctx, account.id, body())),
  },
  {
    method: "POST",
    path: "/sandbox/v1/simulate/typing",
    requiresBody: { example: '{ "from": "+14155550191", "to": "+14155550101" }' },
    doc: {
      tag: TAG,
      summary: "A contact types",
      description:
        "Fires conversation.typing in their one-to-one thread with `to`, or in the group `conversation_id` (once per member number's conversation). Not on SMS.",
      body: simulateTypingBody,
      responses: { 200: { description: "the Chat", schema: chatResource } },
      errorCodes: {
        400: {
          invalid_request:
            "the body breaks a rule, or `from` is not in the thread or is one of the account's numbers; the message names the field",
        },
        409: { invalid_state: "no thread between `from` and `to` yet, or an SMS or group MMS thread" },
      },
    },
    handler: ({ ctx, account, body }) => ok(simulateTyping(ctx, account.id, body())),
  },
  {
    method: "POST",
    path: "/sandbox/v1/simulate/edit",
    requiresBody: { example: '{ "message_id": "…", "text": "new text" }' },
    doc: {
      tag: TAG,
      summary: "A contact edits their message",
      description: "iMessage or WhatsApp; fires message.edited.",
      body: simulateEditBody,
      responses: message("the edited message"),
      errors: [409],
    },
    handler: ({ ctx, account, body }) => ok(simulateEdit(ctx, account.id, body())),
  },
  {
    method: "POST",
    path: "/sandbox/v1/messages/:id/delivered",
    doc: {
      tag: TAG,
      summary: "Force delivered",
      description: "Moves an outbound message forward through every state in between, firing each event in order.",
      params: id,
      responses: message("the message, delivered"),
      errors: [409],
    },
    handler: ({ ctx, account, params }) => ok(simulateProgress(ctx, account.id, params.id ?? "", "delivered")),
  },
  {
    method: "POST",
    path: "/sandbox/v1/messages/:id/read",
    doc: {
      tag: TAG,
      summary: "Force read",
      description: "Moves an outbound message forward through every state in between, firing each event in order.",
      params: id,
      responses: message("the message, read"),
      errors: [409],
    },
    handler: ({ ctx, account, params }) => ok(simulateProgress(ctx, account.id, params.id ?? "", "read")),
  },
  {
    method: "POST",
    path: "/sandbox/v1/messages/:id/fail",
    doc: {
      tag: TAG,
      summary: "Force a failure",
      description: "A queued or sent message fails with `error` and message.failed.",
      params: id,
      body: simulateFailBody,
      bodyOptional: true,
      responses: message("the failed message"),
      errors: [409],
    },
    handler: async ({ ctx, account, params, json }) =>
      ok(simulateFailure(ctx, account.id, params.id ?? "", await json())),
  },
];
