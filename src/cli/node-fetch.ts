import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";

/**
 * The CLI's `fetch` for the requests it makes most: a JSON or text body (or none) to an http(s)
 * URL. Node 20's own `fetch` loads undici on first use, which cost a client command more than
 * msgctl's whole code does (about twice a bare `node -e 0` on this kind of machine), while
 * node:http is already in memory. Anything else (form data, blobs, streamed uploads, a Headers
 * object) goes to the global `fetch`, which then pays that cost for the commands that need it.
 */
export const nodeFetch: typeof fetch = (input, init = {}) => {
  const body = init.body;
  const plainBody = body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
  const plainHeaders = init.headers === undefined || Object.getPrototypeOf(init.headers) === Object.prototype;
  if (typeof input !== "string" || !plainBody || !plainHeaders) return fetch(input, init);
  return send(input, init, body ?? undefined);
};

function send(url: string, init: RequestInit, body: string | Uint8Array | undefined): Promise<Response> {
  const signal = init.signal ?? undefined;
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const request = (url.startsWith("https:") ? httpsRequest : httpRequest)(url, {
      method: init.method ?? "GET",
      headers: init.headers as Record<string, string> | undefined,
    });
    let answer: IncomingMessage | undefined;
    // Destroyed with the AbortError itself, so a body being read fails with it too (not "aborted").
    const onAbort = () => (answer ?? request).destroy(abortError(signal));
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    request.on("response", (message) => {
      answer = message;
      // The abort stays wired while the body streams: an event stream ends when its signal fires.
      message.on("close", () => signal?.removeEventListener("abort", onAbort));
      resolve(new NodeResponse(url, message) as unknown as Response);
    });
    request.end(body);
  });
}

/** What fetch rejects with when its signal fires. */
function abortError(signal: AbortSignal | undefined): Error {
  const reason = signal?.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return Object.assign(new Error("This operation was aborted"), { name: "AbortError", cause: reason });
}

/** The parts of a fetch Response that msgctl's client and commands read, over node:http's message. */
class NodeResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  #body: ReadableStream<Uint8Array> | undefined;

  constructor(
    readonly url: string,
    private readonly message: IncomingMessage,
  ) {
    this.status = message.statusCode ?? 0;
    this.statusText = message.statusMessage ?? "";
    this.ok = this.status >= 200 && this.status < 300;
    this.headers = {
      get: (name) => {
        const value = message.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    };
  }

  /** The body as a web stream (event streams, downloads), created on first use. */
  get body(): ReadableStream<Uint8Array> {
    this.#body ??= Readable.toWeb(this.message) as ReadableStream<Uint8Array>;
    return this.#body;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const chunks: Buffer[] = [];
    // A body cut off midway rejects here ("aborted"), as undici's "terminated" does.
    for await (const chunk of this.message) chunks.push(chunk as Buffer);
    if (!this.message.complete) throw new Error("terminated: the connection closed before the body ended");
    const whole = Buffer.concat(chunks);
    return whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.arrayBuffer());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}
