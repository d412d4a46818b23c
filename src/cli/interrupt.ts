/** Exit statuses of a wait ended by a signal: 128 + the signal's number, as shells report them. */
export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * Runs a waiting command (`send --wait`, `wait …`) so that SIGINT and SIGTERM end it at once
 * with 130 or 143, after `onSignal` (which stops a spinner). Without this a wait could outlive
 * Ctrl-C: ora's own signal hooks only act when nothing else listens.
 */
export async function interruptible<T>(work: () => Promise<T>, onSignal: () => void = () => {}): Promise<T> {
  const handlers = (Object.keys(SIGNAL_EXIT) as (keyof typeof SIGNAL_EXIT)[]).map((signal) => {
    const handler = () => {
      onSignal();
      process.exit(SIGNAL_EXIT[signal]);
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  try {
    return await work();
  } finally {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  }
}
