import { firstAttemptFinished } from "../client/delivered.js";
import type { EventPayload, EventType, EventView } from "../contract/types.js";
import { allAccounts } from "../domain/accounts/index.js";
import { listEvents, toEventView } from "../domain/core/index.js";
import { listEventDeliveries } from "../domain/webhooks/index.js";
import { parseDuration } from "../lib/duration.js";
import type { Sandbox } from "./launch-sandbox.js";
import type { EventMatch, WaitForEventOptions } from "./start-sandbox.js";

/** A started sandbox's event history and its waits for an event; `stopAll` ends the waits pending. */
export interface EventWaits {
  events(account?: string): EventView[];
  waitForEvent<T extends EventType>(type: T, options?: WaitForEventOptions<T>): Promise<EventView<T>>;
  stopAll(): void;
}

function matcher<T extends EventType>(match: EventMatch<T> | undefined): (payload: EventPayload<T>) => boolean {
  if (!match) return () => true;
  if (typeof match === "function") return match;
  return (payload) =>
    Object.entries(match).every(([key, value]) => (payload as Record<string, unknown>)[key] === value);
}

/**
 * The events of a sandbox's accounts, read from its database and watched on its bus. Kept out of
 * the public types (start-sandbox.ts names only its options), which must not reach the store's.
 */
export function eventWaits(sandbox: Pick<Sandbox, "ctx" | "bus">): EventWaits {
  const accountId = (name?: string) => {
    const all = allAccounts(sandbox.ctx);
    const account = name ? all.find((a) => a.name === name) : all[0];
    if (!account) throw new Error(`No account named "${name}"`);
    return account.id;
  };
  /** Pending `waitForEvent` calls, told when the sandbox stops. */
  const waiting = new Set<() => void>();
  const history = (account?: string) => listEvents(sandbox.ctx, accountId(account), 0, 1_000_000);

  return {
    events: history,
    async waitForEvent<T extends EventType>(
      type: T,
      { match, timeout, timeoutMs: legacyTimeout, account, delivered = false }: WaitForEventOptions<T> = {},
    ) {
      const timeoutMs =
        typeof timeout === "string" ? parseDuration(timeout, "timeout") : (timeout ?? legacyTimeout ?? 5_000);
      const wanted = matcher(match);
      const id = accountId(account);
      const isWanted = (event: EventView): event is EventView<T> =>
        event.type === type && wanted(event.payload as EventPayload<T>);
      // Every delivery's first attempt finished and recorded (the deliveries are made with the event).
      const isDelivered = (event: EventView) =>
        listEventDeliveries(sandbox.ctx, id, event.id).every(firstAttemptFinished);
      const found = history(account).find(isWanted);
      if (found && (!delivered || isDelivered(found))) return found;
      return new Promise<EventView<T>>((resolve, reject) => {
        let emitted = found;
        const end = () => {
          clearTimeout(timer);
          for (const off of unsubscribe) off();
          waiting.delete(stopped);
        };
        const timer = setTimeout(() => {
          end();
          reject(
            new Error(
              emitted
                ? `The ${type} event ${emitted.id} was emitted, but not every first delivery attempt finished within ${timeoutMs} ms`
                : `No ${type} event within ${timeoutMs} ms (on a manual clock, advance it first)`,
            ),
          );
        }, timeoutMs);
        const unsubscribe = [
          sandbox.bus.on("event", (event) => {
            if (emitted || event.accountId !== id) return;
            const view = toEventView(event);
            if (!isWanted(view)) return;
            emitted = view;
            if (delivered && !isDelivered(view)) return;
            end();
            resolve(view);
          }),
          // Anything written (an attempt recorded, an endpoint deleted) may have finished the wait.
          sandbox.bus.on("changed", () => {
            if (!delivered || !emitted || !isDelivered(emitted)) return;
            end();
            resolve(emitted as EventView<T>);
          }),
        ];
        // A wait still pending when the sandbox stops ends then, instead of holding the process.
        const stopped = () => {
          end();
          reject(new Error(`No ${type} event: the sandbox stopped`));
        };
        waiting.add(stopped);
      });
    },
    stopAll() {
      for (const stopped of [...waiting]) stopped();
    },
  };
}
