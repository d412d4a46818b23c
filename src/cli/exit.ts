/**
 * Leaving the process without losing output. `process.exit` drops whatever a pipe has not taken
 * yet (a slow reader: `msgctl openapi | (sleep 1; wc -c)` kept the first 64 KiB), so the exit waits
 * until stdout and stderr have handed everything to the OS. A reader that goes away early
 * (`msgctl openapi | head -c 10`) is not an error: the rest cannot be said to anyone.
 */

let finishedWith: number | undefined;

/** Resolves once everything written to `stream` so far is out of the process, or cannot be. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  // Writes complete in order: the callback of an empty write runs after every earlier one.
  return new Promise((resolve) => stream.write("", () => resolve()));
}

/**
 * From now on a closed stdout or stderr (EPIPE) ends the process quietly: with the command's
 * status if it has finished, else 0, since the reader chose to stop reading.
 */
export function exitQuietlyOnBrokenPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      process.exit(finishedWith ?? 0);
    });
  }
}

/** Exits with `code` once stdout and stderr are flushed. */
export async function exitAfterFlush(code: number): Promise<never> {
  finishedWith = code;
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}
