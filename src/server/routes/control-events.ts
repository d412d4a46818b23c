import type { EventStream } from "h3";
import { eventView, listEventsQuery, streamEventsQuery } from "../../contract/events.js";
import {
  getEvent,
  listEvents,
  parseEventTypes,
  toEventView,
  type EventType,
  type EventView,
} from "../../domain/core/index.js";
import { parseInput } from "../../lib/validation.js";
import { openEventStream } from "../event-stream.js";
import { ok, page, type ApiRequest, type Route } from "../route.js";

/** Events replayed to a stream that resumes after a known one, at most. */
const REPLAY_LIMIT = 10_000;

function streamEvents(request: ApiRequest): EventStream {
  const { ctx, account, event, query } = request;
  const types = parseEventTypes(query.get("types") ?? query.get("events"));
  const wanted = (type: EventType) => !types || types.has(type);
  const lastId = Number(request.header("last-event-id") ?? query.get("after") ?? NaN);
  let sentUpTo = 0;
  return openEventStream(event, (stream) => {
    const send = (view: EventView) => {
      if (view.seq <= sentUpTo || !wanted(view.type)) return;
      sentUpTo = view.seq;
      void stream.push({ id: String(view.seq), event: view.type, data: JSON.stringify(view) });
    };
    const unsubscribe = ctx.bus.on("event", (emitted) => {
      if (emitted.accountId === account.id) send(toEventView(emitted));
    });
    // Resume after a known event: replay what the client missed, then go live.
    if (Number.isInteger(lastId) && lastId >= 0)
      for (const view of listEvents(ctx, account.id, lastId, REPLAY_LIMIT, { types })) send(view);
    return unsubscribe;
  });
}

/** The event stream and the event list under /sandbox/v1 (what tail and wait read). */
export const controlEventRoutes: Route[] = [
  {
    method: "GET",
    path: "/sandbox/v1/events",
    doc: {
      tag: "Sandbox: events",
      summary: "List events",
      description: "The account's events after a sequence number.",
      query: listEventsQuery,
      responses: { 200: { description: "a page of events", schema: eventView, list: true } },
    },
    handler({ ctx, account, query }) {
      const { after, limit, types: raw, order } = parseInput(listEventsQuery, Object.fromEntries(query), "query");
      const types = parseEventTypes(raw ?? query.get("events"));
      const views = listEvents(ctx, account.id, after, limit + 1, { order, types });
      return page(views.slice(0, limit), views.length > limit);
    },
  },
  {
    method: "GET",
    path: "/sandbox/v1/events/stream",
    doc: {
      tag: "Sandbox: events",
      summary: "Stream events live",
      description:
        "Server-sent events, one per emitted event (its data an Event), live until the client goes away; `after` or Last-Event-ID replays what was missed first.",
      query: streamEventsQuery,
      responses: { 200: { description: "text/event-stream", raw: "text/event-stream" } },
    },
    handler: streamEvents,
  },
  {
    method: "GET",
    path: "/sandbox/v1/events/:id",
    doc: {
      tag: "Sandbox: events",
      summary: "One event",
      description: "By id (the X-Msgctl-Event-Id of its deliveries); `payload` is the body its deliveries carry.",
      params: { id: "the event's id" },
      responses: { 200: { description: "the event", schema: eventView } },
    },
    handler: ({ ctx, account, params }) => ok(getEvent(ctx, account.id, params.id ?? "")),
  },
];
