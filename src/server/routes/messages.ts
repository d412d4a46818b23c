import {
  availabilityQuery,
  editBody,
  handleAvailability as availabilitySchema,
  listMessagesQuery,
  messageResource,
  reactBody,
  sendMessageBody,
} from "../../contract/messages.js";
import {
  editMessage,
  getMessage,
  handleAvailability,
  listMessages,
  reactToMessage,
  retryMessage,
  sendMessage,
  unsendMessage,
} from "../../domain/messages/index.js";
import { ok, page, type Route } from "../route.js";

const TAG = "Messages";
const id = { id: "the message's id" };
const theMessage = { 200: { description: "the Message", schema: messageResource } };

/** Messages and handle availability (spec 4.3). */
export const messageRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/messages",
    requiresBody: { example: '{ "to": "+14155550191", "from_handle": "+14155550101", "text": "hi" }' },
    doc: {
      tag: TAG,
      summary: "Send a message",
      description:
        "Accepted as `queued` with `channel` null; progress is reported by webhooks (spec 3, 4.3). Never re-POST a message that is still queued.",
      body: sendMessageBody,
      headers: {
        "Idempotency-Key":
          "a repeated key returns the original message with 200 and sends nothing (per account and endpoint)",
      },
      responses: {
        202: { description: "accepted: the Message, queued", schema: messageResource },
        200: { description: "an idempotent replay: the original Message", schema: messageResource },
      },
      errorCodes: {
        400: {
          invalid_request:
            "the body breaks a rule (`conversation_id` with `to` or `from_handle`, neither `text` nor `attachment_ids`, …); the message names the field",
          invalid_from_handle: "`from_handle` is not one of the account's numbers",
          invalid_attachments:
            "an attachment id is unknown, another account's, not uploaded yet, or already claimed by a message",
          unsupported: "a send into a WhatsApp group from a WhatsApp Cloud API number",
        },
        409: { invalid_state: "a send into a group from a number that is no longer a member" },
      },
    },
    handler({ ctx, account, body, idempotencyKey }) {
      const result = sendMessage(ctx, account.id, body(), idempotencyKey());
      return ok(result.message, result.replayed ? 200 : 202);
    },
  },
  {
    method: "GET",
    path: "/v1/messages",
    doc: {
      tag: TAG,
      summary: "List messages",
      description: "Newest first; the next page's `before` is the oldest `created_at` of this one.",
      query: listMessagesQuery,
      responses: { 200: { description: "a page of Messages", schema: messageResource, list: true } },
    },
    handler({ ctx, account, query }) {
      const { data, hasMore } = listMessages(ctx, account.id, Object.fromEntries(query));
      return page(data, hasMore);
    },
  },
  {
    method: "GET",
    path: "/v1/messages/:id",
    doc: { tag: TAG, summary: "Get a message", params: id, responses: theMessage },
    handler: ({ ctx, account, params }) => ok(getMessage(ctx, account.id, params.id ?? "")),
  },
  {
    method: "POST",
    path: "/v1/messages/:id/react",
    requiresBody: { example: '{ "reaction": "love" }' },
    doc: {
      tag: TAG,
      summary: "React to a message",
      description:
        "A tapback or a single emoji; the message must be delivered (or read), on iMessage or WhatsApp. Lands asynchronously.",
      params: id,
      body: reactBody,
      responses: theMessage,
      errors: [409],
    },
    handler: ({ ctx, account, params, body }) => ok(reactToMessage(ctx, account.id, params.id ?? "", body())),
  },
  {
    method: "POST",
    path: "/v1/messages/:id/edit",
    requiresBody: { example: '{ "text": "new text" }' },
    doc: {
      tag: TAG,
      summary: "Edit a message",
      description: "iMessage only, once sent; lands asynchronously (`edited_at`, `message.edited`).",
      params: id,
      body: editBody,
      responses: theMessage,
      errors: [409],
    },
    handler: ({ ctx, account, params, body }) => ok(editMessage(ctx, account.id, params.id ?? "", body())),
  },
  {
    method: "POST",
    path: "/v1/messages/:id/unsend",
    doc: {
      tag: TAG,
      summary: "Unsend a message",
      description: "iMessage only, once sent; lands asynchronously. Any body is ignored.",
      params: id,
      responses: theMessage,
      errors: [409],
    },
    // Any body is ignored (docs/spec-decisions.md): clients that always send `{}` work.
    handler: ({ ctx, account, params }) => ok(unsendMessage(ctx, account.id, params.id ?? "")),
  },
  {
    method: "POST",
    path: "/v1/messages/:id/retry",
    doc: {
      tag: TAG,
      summary: "Retry a failed message",
      description: "failed → queued; parts already sent are never re-sent. Any body is ignored.",
      params: id,
      responses: theMessage,
      errors: [409],
    },
    handler: ({ ctx, account, params }) => ok(retryMessage(ctx, account.id, params.id ?? "")),
  },
  {
    method: "GET",
    path: "/v1/handles/availability",
    doc: {
      tag: TAG,
      summary: "Check a handle's availability",
      description: "Whether the handle is on iMessage, and the channel a send would use.",
      query: availabilityQuery,
      responses: { 200: { description: "the availability", schema: availabilitySchema } },
    },
    handler: ({ ctx, query }) => ok(handleAvailability(ctx, query.get("handle"))),
  },
];
