/**
 * A typed publish/subscribe channel: listeners by topic, called in the order they subscribed.
 * A listener that throws is reported to `onListenerError` and never stops the others.
 */
export class EventBus<Topics extends object> {
  readonly #listeners = new Map<keyof Topics, Set<(payload: never) => void>>();
  readonly #onListenerError: (error: unknown) => void;

  constructor(options: { onListenerError?: (error: unknown) => void } = {}) {
    this.#onListenerError =
      options.onListenerError ??
      ((error) =>
        queueMicrotask(() => {
          throw error;
        }));
  }

  /** Calls `listener` for every payload published on `topic` from now on; returns an unsubscribe function. */
  on<K extends keyof Topics>(topic: K, listener: (payload: Topics[K]) => void): () => void {
    let listeners = this.#listeners.get(topic);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(topic, listeners);
    }
    const entry = listener as (payload: never) => void;
    listeners.add(entry);
    return () => void listeners.delete(entry);
  }

  /** True when `topic` has listeners (a publisher can skip building what nobody hears). */
  has(topic: keyof Topics): boolean {
    return (this.#listeners.get(topic)?.size ?? 0) > 0;
  }

  /** Tells every listener of `topic`. */
  publish<K extends keyof Topics>(topic: K, payload: Topics[K]): void {
    const listeners = this.#listeners.get(topic);
    if (!listeners) return;
    for (const listener of listeners) {
      try {
        (listener as (payload: Topics[K]) => void)(payload);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }
}
