import {
  simulateEdit,
  simulateFailure,
  simulateInbound,
  simulateProgress,
  simulateReaction,
  simulateTyping,
} from "../../domain/simulate/index.js";
import { ok, type Route } from "../route.js";

/** The simulate actions of the control API (SANDBOX.md section 6): contacts' activity, forced progress. */
export const simulateRoutes: Route[] = [
  {
    method: "POST",
    path: "/sandbox/v1/simulate/inbound",
    handler: async ({ ctx, account, json }) => ok(simulateInbound(ctx, account.id, await json()), 201),
  },
  {
    method: "POST",
    path: "/sandbox/v1/simulate/reaction",
    handler: async ({ ctx, account, json }) => ok(simulateReaction(ctx, account.id, await json())),
  },
  {
    method: "POST",
    path: "/sandbox/v1/simulate/typing",
    handler: async ({ ctx, account, json }) => ok(simulateTyping(ctx, account.id, await json())),
  },
  {
    method: "POST",
    path: "/sandbox/v1/simulate/edit",
    handler: async ({ ctx, account, json }) => ok(simulateEdit(ctx, account.id, await json())),
  },
  {
    method: "POST",
    path: "/sandbox/v1/messages/:id/delivered",
    handler: ({ ctx, account, params }) => ok(simulateProgress(ctx, account.id, params.id ?? "", "delivered")),
  },
  {
    method: "POST",
    path: "/sandbox/v1/messages/:id/read",
    handler: ({ ctx, account, params }) => ok(simulateProgress(ctx, account.id, params.id ?? "", "read")),
  },
  {
    method: "POST",
    path: "/sandbox/v1/messages/:id/fail",
    handler: async ({ ctx, account, params, json }) => ok(simulateFailure(ctx, account.id, params.id ?? "", await json())),
  },
];
