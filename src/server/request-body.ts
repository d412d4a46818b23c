import { isUtf8 } from "node:buffer";
import type { H3Event } from "h3";
import { AppError, invalidRequest } from "../lib/app-error.js";
import { assertBoundedJson, INPUT_LIMITS, nestsDeeperThan } from "../lib/bounded-input.js";

const tooLarge = (limit: number) =>
  new AppError("payload_too_large", 413, `Request body is larger than the ${Math.round(limit / 1024)} KiB limit`);

/** How much of a refused body is still read (and dropped) so that the client gets the 413. */
const DISCARD_LIMIT = 16 * 1024 * 1024;

/**
 * Reads and drops the rest of a refused body while the 413 goes out. Closing a socket with unread
 * data resets it, and a client still writing (as curl does before it reads) would lose the
 * answer; past 16 MiB the connection is closed anyway, so a client cannot keep it busy.
 */
export function discardRest(stream: NodeJS.ReadableStream & { destroy?: () => void }, alreadyRead: number): void {
  let discarded = alreadyRead;
  stream.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_LIMIT) stream.destroy?.();
  });
  stream.on("error", () => {});
  stream.resume();
}

/** Reads the raw body, refusing more than `limit` bytes (413) even when no length is declared. */
async function readBodyBytes(event: H3Event, limit: number): Promise<Buffer> {
  const declared = Number(event.req.headers.get("content-length") ?? "0");
  const node = event.runtime?.node?.req as unknown as (NodeJS.ReadableStream & { destroy(): void }) | undefined;
  if (declared > limit) {
    if (node) discardRest(node, 0);
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const take = (chunk: Uint8Array) => {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge(limit);
    // Node's chunks are Buffers already: Buffer.from would copy each one.
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  };
  if (node) {
    // Straight from the Node stream: cheaper than the web stream wrapper on the hot path.
    await readNodeStream(node, take);
  } else if (event.req.body) {
    for await (const chunk of event.req.body as unknown as AsyncIterable<Uint8Array>) take(chunk);
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}

/**
 * Reads a JSON body: undefined when there is none; 415 unsupported_media_type when the content
 * type is not JSON; 400 invalid_request when it is not UTF-8, does not parse or breaks the generic input limits
 * (nesting, string length: src/lib/bounded-input.ts); 413 over the limit.
 */
export async function readJsonBody(event: H3Event, limit: number): Promise<unknown> {
  const bytes = await readBodyBytes(event, limit);
  if (bytes.length === 0) return undefined;
  const type = (event.req.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type !== "application/json" && !type.endsWith("+json")) {
    throw new AppError("unsupported_media_type", 415, `Content-Type must be application/json (got ${type || "none"})`);
  }
  // Decoding would turn bad bytes into U+FFFD: a text changed with no edit (as for lone surrogates).
  if (!isUtf8(bytes)) throw invalidRequest("body: not valid UTF-8");
  const text = bytes.toString("utf8");
  if (nestsDeeperThan(text, INPUT_LIMITS.jsonDepth))
    throw invalidRequest(`body: nested deeper than ${INPUT_LIMITS.jsonDepth} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("invalid_request", 400, "Malformed JSON body");
  }
  assertBoundedJson(value);
  return value;
}

/**
 * Reads a Node request without ever destroying it: breaking out of `for await` would destroy
 * the socket before the 413 answer is written. Over the limit it rejects at once and drops the
 * rest of the body (`discardRest`) while the answer goes out.
 */
function readNodeStream(
  stream: NodeJS.ReadableStream & { destroy(): void },
  take: (chunk: Buffer) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
    };
    let read = 0;
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      try {
        take(chunk);
      } catch (error) {
        cleanup();
        discardRest(stream, read);
        reject(error);
      }
    };
    const onEnd = () => {
      cleanup();
      resolve();
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", onError);
  });
}
