import type { DomainContext } from "../core/context.js";
import type { DeliveryView } from "./deliveries.js";

/** Told about a delivery right after one of its attempts was recorded. */
export type DeliveryListener = (accountId: string, delivery: DeliveryView) => void;

// Keyed by context, so each sandbox has its own listeners and they outlive a reset (which
// clears ctx.caches) – `webhooks listen` keeps streaming across `msgctl reset`.
const listenersByContext = new WeakMap<DomainContext, Set<DeliveryListener>>();

/** Calls `listener` after every recorded attempt from now on; returns an unsubscribe function. */
export function onDeliveryAttempt(ctx: DomainContext, listener: DeliveryListener): () => void {
  let listeners = listenersByContext.get(ctx);
  if (!listeners) {
    listeners = new Set();
    listenersByContext.set(ctx, listeners);
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells the listeners about a recorded attempt (after its transaction committed). */
export function publishDeliveryAttempt(ctx: DomainContext, accountId: string, delivery: DeliveryView): void {
  for (const listener of listenersByContext.get(ctx) ?? []) listener(accountId, delivery);
}
