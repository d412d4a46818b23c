import type { Readable } from "node:stream";

/** Bytes of the head kept for sniffing. */
const HEAD_BYTES = 64 * 1024;

/**
 * Reads a stream chunk by chunk through `take` until it ends, or until `take` answers false
 * (over the limit): then it stops listening and pauses, leaving the socket open so that the
 * error answer can still be written (breaking out of `for await` would destroy it).
 */
export function consume(source: Readable, take: (chunk: Buffer) => boolean | Promise<boolean>): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let busy = Promise.resolve(true);
    const stop = (result: boolean) => {
      source.off("data", onData);
      source.off("end", onEnd);
      source.off("error", onError);
      if (!result) source.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      const kept = take(chunk);
      if (kept === true) return;
      if (kept === false) return stop(false);
      // An asynchronous take (a file write waiting for drain): hold the source meanwhile.
      source.pause();
      busy = kept.then(
        (ok) => {
          if (!ok) stop(false);
          else source.resume();
          return ok;
        },
        (error) => {
          onError(error as Error);
          return false;
        },
      );
    };
    const onEnd = () => void busy.then((ok) => ok && stop(true));
    const onError = (error: Error) => {
      source.off("data", onData);
      source.off("end", onEnd);
      source.off("error", onError);
      reject(error);
    };
    source.on("data", onData);
    source.on("end", onEnd);
    source.on("error", onError);
  });
}

/** Collects the first HEAD_BYTES of a stream as it passes. */
export function headCollector(): { add(chunk: Buffer): void; head(): Buffer } {
  const parts: Buffer[] = [];
  let size = 0;
  return {
    add(chunk) {
      if (size >= HEAD_BYTES) return;
      const part = chunk.subarray(0, HEAD_BYTES - size);
      parts.push(Buffer.from(part));
      size += part.length;
    },
    head: () => Buffer.concat(parts),
  };
}
