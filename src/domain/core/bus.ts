import type { Delivery } from "../../contract/webhooks.js";
import { EventBus } from "../../lib/event-bus.js";
import type { EmittedEvent } from "./events.js";

/**
 * What the domain announces once it is committed. Everything that listens live subscribes here:
 * the scheduler (new jobs), tail, wait and the event stream (events), `webhooks listen` and the
 * inspector (delivery attempts), the inspector's activity stream (changes). Nothing is published before its transaction committed.
 */
export interface DomainTopics {
  /** An event was committed to the outbox. */
  event: EmittedEvent;
  /** A job was committed, due at this virtual time, in this lane (or none). */
  job: { dueAt: number; lane: string | null };
  /** A webhook delivery attempt was recorded; the delivery with every attempt so far. */
  delivery: { accountId: string; delivery: Delivery };
  /** The sandbox changed: a write was committed (any account, any table), or the clock moved. Views refresh on it. */
  changed: null;
  /** The whole sandbox was replaced by the snapshot of this name (not an event of the service: no webhook gets it). */
  restored: { snapshot: string };
}

/** The sandbox's one bus. */
export type DomainBus = EventBus<DomainTopics>;

/** A new bus; `onListenerError` hears of listeners that threw. */
export function createBus(onListenerError?: (error: unknown) => void): DomainBus {
  return new EventBus<DomainTopics>({ onListenerError });
}
