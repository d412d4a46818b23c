import { chaosBody, chaosLogEntry, chaosLogQuery, chaosStatus as chaosSchema } from "../../contract/chaos.js";
import { listChaosDecisions } from "../../domain/chaos/index.js";
import { chaosStatus, startChaos, stopChaos } from "../../domain/control/index.js";
import { ok, page, type Route } from "../route.js";

const TAG = "Sandbox: chaos";

/** Seeded chaos under /sandbox/v1 (docs/chaos.md, docs/control-api.md "Seeded chaos"). */
export const controlChaosRoutes: Route[] = [
  {
    method: "GET",
    path: "/sandbox/v1/chaos",
    doc: {
      tag: TAG,
      summary: "The chaos in force",
      responses: { 200: { description: "whether chaos is on, its seed, profile and rates", schema: chaosSchema } },
    },
    handler: ({ ctx }) => ok(chaosStatus(ctx)),
  },
  {
    method: "PUT",
    path: "/sandbox/v1/chaos",
    requiresBody: { example: '{ "seed": 42, "profile": "mild" }' },
    doc: {
      tag: TAG,
      summary: "Switch seeded chaos on",
      description:
        "From now on, deliveries are sometimes sent twice, swapped or held back, sends meet a number offline or a transient error, and receipts are lost, at the profile's rates; each decision is drawn from the seed and the identity of the work (an event's number in its account and its endpoint's number, a message's number in its account), so the same seed over the same calls makes the same decisions. The same seed and profile as the chaos in force change nothing; another starts the numbering again. Sandbox-wide, like the clock.",
      body: chaosBody,
      responses: { 200: { description: "the chaos in force", schema: chaosSchema } },
    },
    handler: ({ ctx, body }) => ok(startChaos(ctx, body())),
  },
  {
    method: "DELETE",
    path: "/sandbox/v1/chaos",
    doc: {
      tag: TAG,
      summary: "Switch seeded chaos off",
      description:
        "No decision is made from now on; first attempts chaos holds back go at once, in order. Copies already scheduled and numbers already offline run their course.",
      responses: { 200: { description: "the chaos in force (none)", schema: chaosSchema } },
    },
    handler: ({ ctx }) => ok(stopChaos(ctx)),
  },
  {
    method: "GET",
    path: "/sandbox/v1/chaos/log",
    doc: {
      tag: TAG,
      summary: "The chaos log",
      description:
        "Every decision chaos made about the account's work that took effect, oldest first: what, which event, endpoint, delivery or message, when, and how long.",
      query: chaosLogQuery,
      responses: { 200: { description: "a page of decisions", schema: chaosLogEntry, list: true } },
    },
    handler({ ctx, account, query }) {
      const { data, hasMore } = listChaosDecisions(ctx, account.id, Object.fromEntries(query));
      return page(data, hasMore);
    },
  },
];
