import type { EventStream } from "h3";
import { listReactionsQuery, reactionView, type ActivityChange } from "../../contract/activity.js";
import type { RestoredNotice } from "../../contract/snapshots.js";
import { toEventView } from "../../domain/core/index.js";
import { listThreadReactions } from "../../domain/messages/index.js";
import { isoTime } from "../../lib/clock.js";
import { openEventStream } from "../event-stream.js";
import { page, type ApiRequest, type Route } from "../route.js";

/** At most one `changed` frame per this many milliseconds (real time): a burst of writes is one frame. */
const CHANGED_INTERVAL_MS = 50;

/**
 * Everything the inspector shows live, on one connection: the account's events, its delivery
 * attempts, `changed` when anything was written (a send still queued, the clock, a fault,
 * another account's work), so that a page refreshes what it shows without polling, and
 * `sandbox.restored` when a snapshot replaced everything (a page starts over).
 */
function streamActivity(request: ApiRequest): EventStream {
  const { ctx, control, account, event } = request;
  return openEventStream(event, (stream) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastChanged = 0;
    const pushChanged = () => {
      timer = undefined;
      lastChanged = Date.now();
      const clock = control.clock();
      const data: ActivityChange = { clock: { now: isoTime(clock.now), mode: clock.mode } };
      void stream.push({ event: "changed", data: JSON.stringify(data) });
    };
    // The first write of a quiet spell goes out at once; the rest of a burst waits for the interval.
    const changed = () => {
      timer ??= setTimeout(pushChanged, Math.max(0, lastChanged + CHANGED_INTERVAL_MS - Date.now()));
    };
    const unsubscribe = [
      ctx.bus.on("event", (emitted) => {
        if (emitted.accountId === account.id)
          void stream.push({ id: String(emitted.seq), event: "event", data: JSON.stringify(toEventView(emitted)) });
      }),
      ctx.bus.on("delivery", ({ accountId, delivery }) => {
        if (accountId === account.id) void stream.push({ event: "attempt", data: JSON.stringify(delivery) });
      }),
      ctx.bus.on("changed", changed),
      ctx.bus.on("restored", ({ snapshot }) => {
        const clock = control.clock();
        const data: RestoredNotice = { snapshot, clock: { now: isoTime(clock.now), mode: clock.mode } };
        void stream.push({ event: "sandbox.restored", data: JSON.stringify(data) });
      }),
    ];
    return () => {
      clearTimeout(timer);
      for (const off of unsubscribe) off();
    };
  });
}

/** What the inspector reads besides /v1 and the events (docs/control-api.md, "Activity"). */
export const controlActivityRoutes: Route[] = [
  {
    method: "GET",
    path: "/sandbox/v1/activity/stream",
    doc: {
      tag: "Sandbox: events",
      summary: "Stream the sandbox's activity live",
      description:
        "Server-sent events on one connection: `event` frames (an Event, id its seq) as on /sandbox/v1/events/stream, `attempt` frames (a Delivery after each attempt) as on /sandbox/v1/deliveries/stream, `changed` frames (an ActivityChange) whenever anything was written, at most one per 50 ms, and a `sandbox.restored` frame (a SandboxRestored) when a snapshot replaced the whole sandbox: not an event of the service, no webhook gets it.",
      responses: { 200: { description: "text/event-stream", raw: "text/event-stream" } },
    },
    handler: streamActivity,
  },
  {
    method: "GET",
    path: "/sandbox/v1/reactions",
    doc: {
      tag: "Sandbox: simulate",
      summary: "Reactions standing on a thread's messages",
      description:
        "The contacts' reactions (message.reaction) and the account's own (POST /v1/messages/:id/react, once landed), each person's once, removals applied.",
      query: listReactionsQuery,
      responses: { 200: { description: "the reactions, in the order they landed", schema: reactionView, list: true } },
    },
    handler: ({ ctx, account, query }) => page(listThreadReactions(ctx, account.id, Object.fromEntries(query)), false),
  },
];
