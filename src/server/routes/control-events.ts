import type { EventStream } from "h3";
import { z } from "zod";
import { isEventType, type EmittedEvent, type EventType } from "../../domain/core/events.js";
import { invalidRequest } from "../../lib/app-error.js";
import { isoTime } from "../../lib/clock.js";
import { parseInput } from "../../lib/validation.js";
import { listEventsAfter, type EventRow } from "../../store/events.js";
import { openEventStream } from "../event-stream.js";
import { page, type ApiRequest, type Route } from "../route.js";

/** An event as the control API shows it (tail, wait, the inspector). */
export interface EventView {
  id: string;
  seq: number;
  type: string;
  created_at: string;
  payload: unknown;
}

const fromRow = (row: EventRow): EventView => ({
  id: row.id,
  seq: row.seq,
  type: row.type,
  created_at: isoTime(row.created_at),
  payload: JSON.parse(row.payload),
});

const fromEmitted = (event: EmittedEvent): EventView => ({
  id: event.id,
  seq: event.seq,
  type: event.type,
  created_at: isoTime(event.createdAt),
  payload: event.payload,
});

const listQuery = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(100),
});

/** `types=a,b` → a set of event names (400 on an unknown name), or undefined for all. */
function typesFilter(query: URLSearchParams): Set<EventType> | undefined {
  const raw = query.get("types") ?? query.get("events");
  if (!raw) return undefined;
  const names = raw.split(",").map((name) => name.trim()).filter(Boolean);
  for (const name of names) if (!isEventType(name)) throw invalidRequest(`types: unknown event "${name}"`);
  return new Set(names as EventType[]);
}

function streamEvents(request: ApiRequest): EventStream {
  const { control, ctx, account, event, query } = request;
  const types = typesFilter(query);
  const wanted = (type: string, accountId: string) => accountId === account.id && (!types || types.has(type as EventType));
  const lastId = Number(request.header("last-event-id") ?? query.get("after") ?? NaN);
  let sentUpTo = 0;
  return openEventStream(event, (stream) => {
    const send = (view: EventView) => {
      if (view.seq <= sentUpTo) return;
      sentUpTo = view.seq;
      void stream.push({ id: String(view.seq), event: view.type, data: JSON.stringify(view) });
    };
    const unsubscribe = control.subscribe((emitted) => {
      if (wanted(emitted.type, emitted.accountId)) send(fromEmitted(emitted));
    });
    // Resume after a known event: replay what the client missed, then go live.
    if (Number.isInteger(lastId) && lastId >= 0) {
      for (const row of listEventsAfter(ctx.db, lastId, 10_000, account.id)) if (wanted(row.type, row.account_id)) send(fromRow(row));
    }
    return unsubscribe;
  });
}

/** The event stream and the event list under /sandbox/v1 (what tail and wait read). */
export const eventRoutes: Route[] = [
  {
    method: "GET",
    path: "/sandbox/v1/events",
    handler({ ctx, account, query }) {
      const { after, limit } = parseInput(listQuery, Object.fromEntries(query), "query");
      const types = typesFilter(query);
      const rows = listEventsAfter(ctx.db, after, limit + 1, account.id);
      const views = rows.slice(0, limit).map(fromRow);
      return page(types ? views.filter((view) => types.has(view.type as EventType)) : views, rows.length > limit);
    },
  },
  {
    method: "GET",
    path: "/sandbox/v1/events/stream",
    handler: streamEvents,
  },
];
