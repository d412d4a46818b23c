import { PassThrough, Readable } from "node:stream";
import busboy from "busboy";
import type { H3Event } from "h3";
import type { UploadPart } from "../domain/attachments/index.js";
import { AppError, invalidRequest } from "../lib/app-error.js";
import { discardRest } from "./request-body.js";

/** The raw request body as a Node stream (straight from the socket when there is one). */
function rawRequestStream(event: H3Event): Readable {
  const node = event.runtime?.node?.req as Readable | undefined;
  if (node) return node;
  const body = event.req.body as import("node:stream/web").ReadableStream<Uint8Array> | null;
  return body ? Readable.fromWeb(body) : Readable.from([]);
}

/**
 * A stream that fails with a 400 naming `what` when its source fails (a client that hangs up
 * mid-upload, a multipart body cut short): a broken upload is the client's doing, never a 500.
 */
function guarded(source: Readable, what: string): Readable {
  const guard = new PassThrough();
  source.on("error", (error) => guard.destroy(invalidRequest(`${what}: ${error.message}`)));
  return source.pipe(guard);
}

/** The request body as a Node stream whose failures are 400s. */
export function requestStream(event: H3Event): Readable {
  return guarded(rawRequestStream(event), "body: the upload broke off");
}

/**
 * Runs an upload handler. A refusal may come before the body was read to its end (a file over
 * the limit, an eleventh file, a bad signature): the rest is read and dropped while the answer
 * goes out, as for every refused body (request-body.ts: past 16 MiB the socket is closed).
 */
export async function drainingOnError<T>(event: H3Event, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const node = event.runtime?.node?.req as (Readable & { destroy(): void }) | undefined;
    if (node && !node.readableEnded) {
      node.unpipe();
      discardRest(node, 0);
    }
    throw error;
  }
}

const END = Symbol("end");

/**
 * The parts of a multipart/form-data body as they stream in, parsed with busboy: each file part
 * is handed over as a stream that must be read before the next part arrives, so no file is ever
 * held whole in memory. 415 when the body is not multipart, 400 when it is malformed; `maxParts`
 * bounds the work a hostile body can cause (the domain enforces the file rules).
 */
export async function* multipartParts(event: H3Event, maxParts: number): AsyncGenerator<UploadPart> {
  const type = event.req.headers.get("content-type") ?? "";
  // multipart/form-data without its boundary parameter is that type, malformed: 400 (below).
  if (!/^multipart\/form-data\s*(;|$)/i.test(type)) {
    throw new AppError(
      "unsupported_media_type",
      415,
      `Content-Type must be multipart/form-data with file parts named "file" (got ${type.split(";")[0] || "none"})`,
    );
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": type },
      defParamCharset: "utf8",
      limits: { parts: maxParts, fieldSize: 64 * 1024 },
    });
  } catch (error) {
    throw invalidRequest(`Content-Type: ${(error as Error).message}`);
  }
  const queue: (UploadPart | Error | typeof END)[] = [];
  let wake: (() => void) | undefined;
  const push = (item: UploadPart | Error | typeof END) => {
    queue.push(item);
    wake?.();
  };
  parser.on("file", (field, stream, info) =>
    push({ field, filename: info.filename, stream: guarded(stream, "Malformed multipart body") }),
  );
  parser.on("field", (field) => push({ field }));
  parser.on("partsLimit", () => push(invalidRequest(`file: at most ${maxParts} parts per request`)));
  parser.on("error", (error) => push(invalidRequest(`Malformed multipart body: ${(error as Error).message}`)));
  parser.on("close", () => push(END));
  const source = rawRequestStream(event);
  source.on("error", (error) => push(invalidRequest(`body: the upload broke off: ${error.message}`)));
  source.pipe(parser);
  let finished = false;
  try {
    for (;;) {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      const item = queue.shift();
      if (item === END) {
        finished = true;
        return;
      }
      if (item instanceof Error) throw item;
      if (item) yield item;
    }
  } finally {
    if (!finished) {
      // Stop parsing; the rest of the body is dropped by drainingOnError while the answer goes out.
      source.unpipe(parser);
      parser.removeAllListeners("file");
    }
  }
}
