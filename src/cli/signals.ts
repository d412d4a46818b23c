/**
 * SIGINT and SIGTERM from the first instant. The entry scripts (bin/msgctl, the single binary's
 * scripts/sea-loader.cjs) listen for both before msgctl's code is loaded, with a "latch" that
 * acts at once (nothing has started yet: `serve` exits 0, any other command 130 or 143).
 * They leave it on `globalThis` (no module of ours exists then); the CLI takes over from it here.
 */

const SIGNALS = ["SIGINT", "SIGTERM"] as const;
const LATCH = Symbol.for("msgctl.signal-latch");

/** Removes the entry script's latch, once. */
function detachLatch(): void {
  const store = globalThis as Record<symbol, ((signal: NodeJS.Signals) => void) | undefined>;
  const latch = store[LATCH];
  if (!latch) return;
  delete store[LATCH];
  for (const signal of SIGNALS) process.off(signal, latch);
}

/**
 * Hands SIGINT and SIGTERM to `handler` from now on. It listens before the latch lets go, so no
 * instant is left to the default action (which ends the process by the signal). Returns a
 * function that stops listening.
 */
export function takeSignals(handler: (signal: NodeJS.Signals) => void): () => void {
  for (const signal of SIGNALS) process.on(signal, handler);
  detachLatch();
  return () => {
    for (const signal of SIGNALS) process.off(signal, handler);
  };
}

/** For every command but `serve`: the signals get their default action back. */
export function releaseSignals(): void {
  detachLatch();
}
