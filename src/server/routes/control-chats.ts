import { chatRemoteView as remoteViewSchema, chatResource } from "../../contract/chats.js";
import { simulateParticipantsBody, simulateRenameBody } from "../../contract/world.js";
import { chatRemoteView } from "../../domain/conversations/index.js";
import { simulateParticipants, simulateRename } from "../../domain/simulate/index.js";
import { ok, type Route } from "../route.js";

const theChat = { 200: { description: "the Chat", schema: chatResource } };

// The error codes of a contact's change to a group.
const contactChange = {
  400: {
    invalid_request:
      "the body breaks a rule, `conversation_id` is not one of the account's conversations, or `from` is not a member or is one of the account's numbers (the message names the field)",
  },
  409: {
    not_a_group: "`conversation_id` is a one-to-one thread",
    invalid_state: "a group MMS thread: it has no name and its members are fixed",
  },
};

/** Groups in the control API: the members' side of a thread, and their renames and member changes. */
export const controlChatRoutes: Route[] = [
  {
    method: "GET",
    path: "/sandbox/v1/chats/:id/remote",
    doc: {
      tag: "Sandbox: simulated world",
      summary: "What the other members see of the account",
      description: "The account's typing bubble (until when it shows) and its read mark in a thread.",
      params: { id: "the conversation's id" },
      responses: { 200: { description: "the thread as the other members' phones show it", schema: remoteViewSchema } },
      errorCodes: { 404: { not_found: "no such chat: a malformed or unknown id, or another account's" } },
    },
    handler: ({ ctx, account, params }) => ok(chatRemoteView(ctx, account.id, params.id ?? "")),
  },
  {
    method: "POST",
    path: "/sandbox/v1/simulate/rename",
    requiresBody: { example: '{ "conversation_id": "…", "title": "Weekend plans" }' },
    doc: {
      tag: "Sandbox: simulate",
      summary: "A member renames a group",
      description:
        "iMessage or WhatsApp groups; fires conversation.renamed in each member number's conversation (`title` null removes the name).",
      body: simulateRenameBody,
      responses: theChat,
      errorCodes: contactChange,
    },
    handler: ({ ctx, account, body }) => ok(simulateRename(ctx, account.id, body())),
  },
  {
    method: "POST",
    path: "/sandbox/v1/simulate/participants",
    requiresBody: {
      example: '{ "conversation_id": "…", "action": "add", "handle": "+14155550150", "from": "+14155550191" }',
    },
    doc: {
      tag: "Sandbox: simulate",
      summary: "A member adds or removes someone",
      description:
        "iMessage or WhatsApp groups; a member may remove itself (it leaves). One of the account's numbers that is added gets its own conversation of the group.",
      body: simulateParticipantsBody,
      responses: theChat,
      errorCodes: {
        400: {
          invalid_request: `${contactChange[400].invalid_request}; or \`handle\` cannot join (not on the group's service) or is not a member to remove`,
        },
        409: {
          ...contactChange[409],
          invalid_state: `${contactChange[409].invalid_state}; or the group is full, or too few members would remain`,
        },
      },
    },
    handler: ({ ctx, account, body }) => ok(simulateParticipants(ctx, account.id, body())),
  },
];
