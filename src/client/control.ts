import type { AccountView, ClockView, EventType, EventView, FixtureInput, SettleResult } from "../contract/types.js";
import type { HttpClient } from "./http.js";

/** A duration as the control API reads it: milliseconds become `"250ms"`. */
const durationText = (value: string | number) => (typeof value === "number" ? `${value}ms` : value);

/** The clock, reset and events of the control API (/sandbox/v1 on the messaging host). */
export function controlClient(http: HttpClient) {
  return {
    /** The clock's time and mode. */
    clock: async () => (await http.request<ClockView>("messaging", "GET", "/sandbox/v1/clock")).data,
    /** Advances the manual clock by a duration (`"1h30m"`) or milliseconds. */
    advance: async (by: string | number) =>
      (
        await http.request<ClockView>("messaging", "POST", "/sandbox/v1/clock/advance", {
          body: typeof by === "number" ? { ms: by } : { duration: by },
        })
      ).data,
    /**
     * Waits until every job due now has run and every first delivery attempt due has finished,
     * without moving the clock; `timeout` is real time (`"10s"`, or milliseconds; default 10 s).
     * ApiError `settle_timeout` (408) when it passes first.
     */
    settle: async (options: { timeout?: string | number } = {}) =>
      (
        await http.request<SettleResult>("messaging", "POST", "/sandbox/v1/settle", {
          body: options.timeout === undefined ? {} : { timeout: durationText(options.timeout) },
        })
      ).data,
    /** Wipes all state and re-seeds (from `fixture` when given). */
    reset: async (fixture?: FixtureInput) =>
      (
        await http.request<{ accounts: AccountView[] }>("messaging", "POST", "/sandbox/v1/reset", {
          body: fixture === undefined ? {} : { fixture },
        })
      ).data,
    /** Events after a sequence number, oldest first. */
    events: async (options: { after?: number; limit?: number; types?: EventType[]; order?: "asc" | "desc" } = {}) => {
      const response = await http.request<EventView[]>("messaging", "GET", "/sandbox/v1/events", {
        query: { after: options.after, limit: options.limit, types: options.types?.join(","), order: options.order },
      });
      return { data: response.data, hasMore: response.hasMore ?? false };
    },
    /** GET /sandbox/v1/events/:id: one event (the X-Msgctl-Event-Id of its deliveries). */
    event: async (id: string) =>
      (await http.request<EventView>("messaging", "GET", `/sandbox/v1/events/${encodeURIComponent(id)}`)).data,
    /**
     * The live activity stream (server-sent `event`, `attempt` and `changed` frames: anything
     * written) as a response; ApiError when refused.
     */
    activity: async (options: { signal?: AbortSignal } = {}) =>
      http.ensureOk(
        await http.raw("messaging", "GET", "/sandbox/v1/activity/stream", {
          headers: { accept: "text/event-stream" },
          signal: options.signal,
        }),
      ),
    /** The live event stream (server-sent events) as a response; ApiError when refused. */
    stream: async (options: { types?: EventType[]; after?: number; signal?: AbortSignal } = {}) =>
      http.ensureOk(
        await http.raw("messaging", "GET", "/sandbox/v1/events/stream", {
          query: { types: options.types?.join(","), after: options.after },
          headers: { accept: "text/event-stream" },
          signal: options.signal,
        }),
      ),
  };
}
