import type {
  ChaosInput,
  ChaosKind,
  ChaosLogEntry,
  ChaosStatus,
  Delivery,
  DeliveryAttempt,
  DeliveryChaosKind,
} from "../contract/index.js";
import type { HttpClient } from "./http.js";

/** Seeded chaos (control API; docs/chaos.md): switch it on and off, read what it decided. */
export function chaosClient(http: HttpClient) {
  return {
    /** Whether chaos is on, with its seed, profile and rates. */
    status: async () => (await http.request<ChaosStatus>("messaging", "GET", "/sandbox/v1/chaos")).data,
    /** Switches chaos on with a seed (a string or a whole number) and a profile (`mild` by default). */
    on: async (input: ChaosInput) =>
      (await http.request<ChaosStatus>("messaging", "PUT", "/sandbox/v1/chaos", { body: input })).data,
    /** Switches chaos off; what it held back goes at once. */
    off: async () => (await http.request<ChaosStatus>("messaging", "DELETE", "/sandbox/v1/chaos")).data,
    /**
     * The account's chaos decisions after an id (0: from the start), a page of at most `limit`
     * (1-100), oldest first, or newest first with `order: "desc"`.
     */
    log: async (options: { after?: number; limit?: number; order?: "asc" | "desc" } = {}) => {
      const response = await http.request<ChaosLogEntry[]>("messaging", "GET", "/sandbox/v1/chaos/log", {
        query: { after: options.after, limit: options.limit, order: options.order },
      });
      return { data: response.data, hasMore: response.hasMore ?? false };
    },
  };
}

/**
 * The `X-Msgctl-Chaos` header an attempt of a delivery carried, for views that show attempts
 * (the CLI's `webhooks listen`, the inspector): every ladder attempt of a copy (`duplicate`), the
 * first ladder attempt of one swapped (`reordered`) or held back (`delayed`); never a resend made
 * by hand. The sandbox sets the header by the same rule (domain/webhooks/attempt.ts).
 */
export function chaosHeaderOf(
  delivery: Pick<Delivery, "chaos" | "attempts">,
  attempt: DeliveryAttempt,
): DeliveryChaosKind | null {
  if (delivery.chaos === null || attempt.resend) return null;
  if (delivery.chaos === "duplicate") return "duplicate";
  const firstLadderAttempt = delivery.attempts.find((other) => !other.resend);
  return firstLadderAttempt?.n === attempt.n ? delivery.chaos : null;
}

/** What each kind of chaos does, in the words of the profiles' table (docs/chaos.md), for people. */
export const CHAOS_KIND_WORDS: Readonly<Record<ChaosKind, string>> = Object.freeze({
  duplicate: "an event delivered twice to an endpoint (the copy 1-60 s later)",
  reordered: "two consecutive first attempts to one endpoint swap order",
  delayed: "a first attempt waits an extra 1-30 s",
  send_error: "a send meets a transient error (retried by the retry policy)",
  number_offline: "a number goes offline for 1-10 min before a send",
  receipt_lost: "a receipt (delivered, read) never comes",
});

/** What a logged decision concerns, in a few words: the event and its endpoint, or the message. */
export function chaosWorkOf(entry: ChaosLogEntry): string {
  if (entry.event_number !== null) {
    return `event #${entry.event_number} ${entry.event_type ?? ""} → endpoint #${entry.endpoint_number ?? "?"}`;
  }
  const message = `message #${entry.message_number ?? "?"}`;
  if (entry.kind === "receipt_lost")
    return `${message}: ${entry.receipt}${entry.member ? ` from ${entry.member}` : ""}`;
  return entry.handle ? `${message} from ${entry.handle}` : message;
}
