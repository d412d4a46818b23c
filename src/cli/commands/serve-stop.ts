import { limitExitWait } from "../exit.js";
import { takeSignals } from "../signals.js";

/** From a signal to the process's exit, at most (real milliseconds). */
const STOP_DEADLINE_MS = 2_000;
/** Webhook attempts in flight at a stop get this long before they are aborted (and left due for the next start). */
export const STOP_GRACE_MS = 1_000;
// After a signal the process exits by then whatever still runs (a stop that hangs, a reader that
// never reads): inside the deadline with room for a loaded machine's timers.
const FORCED_EXIT_MS = 1_700;
/** Once stopped, how long the exit waits for a slow reader to take the last lines. */
export const LAST_LINES_MS = 250;

/**
 * The request to stop: SIGINT or SIGTERM (taken over from the entry script's latch, which ended
 * the process itself while msgctl loaded), or `signal`. A signal also bounds what is left: the
 * process exits within STOP_DEADLINE_MS of it, whatever still runs.
 */
export function stopRequest(signal: AbortSignal | undefined) {
  let requested = false;
  let resolveStop = () => {};
  const stopped = new Promise<void>((done) => {
    resolveStop = done;
  });
  const request = () => {
    if (requested) return;
    requested = true;
    resolveStop();
  };
  const release = takeSignals(() => {
    if (!requested) {
      const at = performance.now() + FORCED_EXIT_MS;
      limitExitWait(at);
      // process.exit runs the 'exit' listeners: the state file is removed on this way out too.
      setTimeout(() => process.exit(0), FORCED_EXIT_MS).unref();
    }
    request();
  });
  signal?.addEventListener("abort", request, { once: true });
  return {
    get requested() {
      return requested;
    },
    stopped,
    /** For a serve run in-process (tests): the signals go back. The CLI keeps them until it exits. */
    release: () => {
      signal?.removeEventListener("abort", request);
      if (signal) release();
    },
  };
}

/** What `stopRequest` returns. */
export type StopRequest = ReturnType<typeof stopRequest>;
