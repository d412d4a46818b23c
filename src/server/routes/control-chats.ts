import { chatRemoteView } from "../../domain/conversations/index.js";
import { simulateParticipants, simulateRename } from "../../domain/simulate/index.js";
import { ok, type Route } from "../route.js";

/** Groups in the control API: the members' side of a thread, and their renames and member changes. */
export const controlChatRoutes: Route[] = [
  {
    method: "GET",
    path: "/sandbox/v1/chats/:id/remote",
    handler: ({ ctx, account, params }) => ok(chatRemoteView(ctx, account.id, params.id ?? "")),
  },
  {
    method: "POST",
    path: "/sandbox/v1/simulate/rename",
    handler: async ({ ctx, account, json }) => ok(simulateRename(ctx, account.id, await json())),
  },
  {
    method: "POST",
    path: "/sandbox/v1/simulate/participants",
    handler: async ({ ctx, account, json }) => ok(simulateParticipants(ctx, account.id, await json())),
  },
];
