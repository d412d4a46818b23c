import { chatRemoteView as remoteViewSchema, chatResource } from "../../contract/chats.js";
import { simulateParticipantsBody, simulateRenameBody } from "../../contract/world.js";
import { chatRemoteView } from "../../domain/conversations/index.js";
import { simulateParticipants, simulateRename } from "../../domain/simulate/index.js";
import { ok, type Route } from "../route.js";

const theChat = { 200: { description: "the Chat", schema: chatResource } };

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
    },
    handler: ({ ctx, account, params }) => ok(chatRemoteView(ctx, account.id, params.id ?? "")),
  },
  {
    method: "POST",
    path: "/sandbox/v1/simulate/rename",
    doc: { tag: "Sandbox: simulate", summary: "A member renames a group", description: "iMessage or WhatsApp groups; fires conversation.renamed in each member number's conversation.", body: simulateRenameBody, responses: theChat, errors: [409] },
    handler: async ({ ctx, account, json }) => ok(simulateRename(ctx, account.id, await json())),
  },
  {
    method: "POST",
    path: "/sandbox/v1/simulate/participants",
    doc: { tag: "Sandbox: simulate", summary: "A member adds or removes someone", description: "iMessage or WhatsApp groups; a member may remove itself (it leaves).", body: simulateParticipantsBody, responses: theChat, errors: [409] },
    handler: async ({ ctx, account, json }) => ok(simulateParticipants(ctx, account.id, await json())),
  },
];
