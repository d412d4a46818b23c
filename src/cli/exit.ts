/**
 * Leaving the process without losing output. `process.exit` drops whatever a pipe has not taken
 * yet (a slow reader: `msgctl openapi | (sleep 1; wc -c)` kept the first 64 KiB), so the exit waits
 * until stdout and stderr have handed everything to the OS. A reader that goes away early
 * (`msgctl openapi | head -c 10`) is not an error: the rest cannot be said to anyone.
 */

let finishedWith: number | undefined;
const stopsOnBrokenPipe = new Set<() => void>();

/** Resolves once everything written to `stream` so far is out of the process, or cannot be. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  // Writes complete in order: the callback of an empty write runs after every earlier one.
  return new Promise((resolve) => stream.write("", () => resolve()));
}

/**
 * From now on a closed stdout or stderr (EPIPE) ends the process quietly: with the command's
 * status if it has finished, else 0, since the reader chose to stop reading. A command that
 * registered with `stopOnBrokenPipe` is stopped instead, and the process ends when it returns.
 */
export function exitQuietlyOnBrokenPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      if (finishedWith !== undefined || stopsOnBrokenPipe.size === 0) process.exit(finishedWith ?? 0);
      for (const stop of stopsOnBrokenPipe) stop();
    });
  }
}

/**
 * For a command with something to undo on the way out (`webhooks listen` deletes its endpoint):
 * a broken pipe calls `stop`, as Ctrl-C does, rather than ending the process at once. Whatever
 * it prints afterwards is dropped (a stream that failed is destroyed).
 */
export function stopOnBrokenPipe(stop: () => void): void {
  stopsOnBrokenPipe.add(stop);
}

/** When set (performance.now() milliseconds): the exit waits for stdout and stderr until then at most. */
let flushDeadline: number | undefined;

/**
 * For `serve`, which must end within its stop deadline whatever its reader does: the exit waits
 * for output no later than `at` (performance.now() milliseconds), then leaves the rest unsaid.
 */
export function limitExitWait(at: number): void {
  flushDeadline = Math.min(flushDeadline ?? at, at);
}

/** Exits with `code` once stdout and stderr are flushed (or the limit of `limitExitWait` passed). */
export async function exitAfterFlush(code: number): Promise<never> {
  finishedWith = code;
  const flushes = Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  if (flushDeadline === undefined) await flushes;
  else {
    const wait = Math.max(0, flushDeadline - performance.now());
    await Promise.race([flushes, new Promise((resolve) => setTimeout(resolve, wait))]);
  }
  process.exit(code);
}
