import { closeSync, constants, openSync, writeSync } from "node:fs";
import { openOutputPath } from "./output-file.js";

/**
 * Where `serve` writes its log lines. `write` never waits for whoever reads them: a line that
 * cannot be written at once is dropped and counted, and when writing works again the next line
 * says how many were lost (`dropped(n)`). So no request, scheduler tick or shutdown ever waits for
 * a reader, and memory never fills with lines nobody reads.
 */
export interface LogSink {
  /** Writes one line (its newline included), or drops it. */
  write(line: string): void;
  /** Releases the file, if it is one. */
  close(): void;
}

/**
 * A sink over stdout or stderr. Why the stream and a watch on its queue, rather than
 * `fs.writeSync` on a non-blocking fd 1: node has no way to make an fd non-blocking itself, and
 * the flag belongs to the pipe's open file description, shared with every other process that
 * writes to it (a shell's other commands would start failing with EAGAIN). The stream already
 * writes at once when it can (libuv tries the write before queueing it); what the pipe did not
 * take stays queued and shows in `writableLength`. Writing only while that queue is empty leaves
 * at most one line (or the rest of one) waiting in memory, however long the reader sleeps, and
 * the process can exit without it (process.exit does not wait for a queue).
 * On a file or a terminal node writes synchronously: the queue is always empty there.
 */
export function streamSink(stream: NodeJS.WriteStream, dropped: (count: number) => string): LogSink {
  let lost = 0;
  // Runs once a write has gone to the OS: the first moment the reader is known to read again.
  const written = (error?: Error | null) => {
    if (error || lost === 0 || stream.writableLength > 0) return;
    const count = lost;
    lost = 0;
    stream.write(dropped(count), written);
  };
  return {
    write(line) {
      if (stream.destroyed || stream.writableEnded) return;
      if (stream.writableLength > 0) {
        lost += 1;
        return;
      }
      stream.write(line, written);
    },
    close() {},
  };
}

/**
 * A sink appending to a file (`--log-file`), its folders made. Writes are synchronous: a regular
 * file takes them at once. Opened non-blocking so that a named pipe nobody reads drops lines as
 * stdout does instead of stopping the process; a line such a pipe took only in part is finished
 * before anything else is written.
 */
export function fileSink(path: string, dropped: (count: number) => string): LogSink {
  const fd = openOutputPath(path, "--log-file", () =>
    openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NONBLOCK, 0o644),
  );
  let lost = 0;
  let closed = false;
  // The part of a line the file took only in part (a named pipe): finished before anything else.
  let rest: Buffer | undefined;
  /** Writes what the file takes of `bytes` now, keeping the rest of a line begun; false when it took nothing. */
  const put = (bytes: Buffer): boolean => {
    let count = 0;
    try {
      count = writeSync(fd, bytes);
    } catch {
      // EAGAIN (a full pipe), or worse (a full disk): a log line is never worth stopping the sandbox.
    }
    if (count > 0 && count < bytes.length) rest = bytes.subarray(count);
    return count > 0;
  };
  return {
    write(line) {
      if (closed) return;
      if (rest !== undefined) {
        const unfinished = rest;
        rest = undefined;
        if (!put(unfinished)) rest = unfinished;
        if (rest !== undefined) {
          lost += 1;
          return;
        }
      }
      // The count goes in one write with the line: a pipe takes a write of up to 4 KiB whole or not
      // at all, so the count is never said while the line it precedes is lost again.
      if (put(Buffer.from(lost > 0 ? dropped(lost) + line : line))) lost = 0;
      else lost += 1;
    },
    close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
    },
  };
}
