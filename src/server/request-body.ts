import type { H3Event } from "h3";
import { AppError, invalidRequest } from "../lib/app-error.js";
import { assertBoundedJson, INPUT_LIMITS, nestsDeeperThan } from "../lib/bounded-input.js";

const tooLarge = (limit: number) =>
  new AppError("payload_too_large", 413, `Request body is larger than the ${Math.round(limit / 1024)} KiB limit`);

/** Reads the raw body, refusing more than `limit` bytes (413) even when no length is declared. */
export async function readBodyBytes(event: H3Event, limit: number): Promise<Buffer> {
  const declared = Number(event.req.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  const node = event.runtime?.node?.req;
  const chunks: Buffer[] = [];
  let size = 0;
  const take = (chunk: Uint8Array) => {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge(limit);
    chunks.push(Buffer.from(chunk));
  };
  if (node) {
    // Straight from the Node stream: cheaper than the web stream wrapper on the hot path.
    await readNodeStream(node as unknown as NodeJS.ReadableStream, take);
  } else if (event.req.body) {
    for await (const chunk of event.req.body as unknown as AsyncIterable<Uint8Array>) take(chunk);
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}

/**
 * Reads a JSON body: undefined when there is none; 415 unsupported_media_type when the content
 * type is not JSON; 400 invalid_request when it does not parse or breaks the generic input limits
 * (nesting, string length: src/lib/bounded-input.ts); 413 over the limit.
 */
export async function readJsonBody(event: H3Event, limit: number): Promise<unknown> {
  const bytes = await readBodyBytes(event, limit);
  if (bytes.length === 0) return undefined;
  const type = (event.req.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type !== "application/json" && !type.endsWith("+json")) {
    throw new AppError("unsupported_media_type", 415, `Content-Type must be application/json (got ${type || "none"})`);
  }
  const text = bytes.toString("utf8");
  if (nestsDeeperThan(text, INPUT_LIMITS.jsonDepth)) throw invalidRequest(`body: nested deeper than ${INPUT_LIMITS.jsonDepth} levels`);
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
 * the socket before the 413 answer is written. Over
 * the limit it just stops listening; the error answer carries `Connection: close`.
 */
function readNodeStream(stream: NodeJS.ReadableStream, take: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      try {
        take(chunk);
      } catch (error) {
        cleanup();
        stream.pause();
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
