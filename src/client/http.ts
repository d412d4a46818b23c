/** Which host a request goes to. */
export type HostName = "messaging" | "otp";

/** An error answer of the API: `{ error, message, request_id }` with its status. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
  ) {
    super(message);
  }
}

/** The sandbox could not be reached at all (not running, wrong URL). */
export class ConnectionError extends Error {
  override readonly name = "ConnectionError";
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(
      `Cannot reach the sandbox at ${url}: ${(cause as Error)?.message ?? String(cause)}. Is \`msgctl serve\` running?`,
      { cause },
    );
  }
}

/**
 * A response's body as text. A body cut off midway (the sandbox stopped while answering: undici's
 * "terminated") is a ConnectionError like a refused connection, not a bare TypeError.
 */
async function bodyText(response: Response): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    if ((error as Error)?.name === "AbortError") throw error;
    throw new ConnectionError(
      response.url ? new URL(response.url).origin : "its address",
      Object.assign(new Error("the sandbox went away while answering"), { cause: error }),
    );
  }
}

/** A JSON value built of plain objects and arrays: sent as JSON, never one of fetch's body types. */
const isPlainData = (value: unknown) =>
  Array.isArray(value) ||
  (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype);

/** One of fetch's own body types, sent as it is. */
const isBodyObject = (value: unknown) =>
  value instanceof FormData ||
  (typeof Blob !== "undefined" && value instanceof Blob) ||
  value instanceof ReadableStream;

/** Where and how a client talks to a sandbox. */
export interface ClientOptions {
  baseUrl: string;
  otpUrl?: string;
  apiKey?: string;
  otpApiKey?: string;
  fetch?: typeof fetch;
}

/** A successful answer, unwrapped from its envelope. */
export interface ApiResponse<T> {
  status: number;
  data: T;
  hasMore?: boolean;
  requestId: string | null;
}

/** One request's parts. */
export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** The HTTP core every resource client uses: bearer auth, the envelope, ApiError. */
export class HttpClient {
  readonly #options: ClientOptions;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions) {
    this.#options = options;
    // Read at the call, not here: in Node the global `fetch` loads undici the moment it is touched.
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** The base URL of a host. */
  url(host: HostName): string {
    const url = host === "otp" ? this.#options.otpUrl : this.#options.baseUrl;
    if (!url)
      throw new ApiError(0, "invalid_request", `No ${host === "otp" ? "OTP" : "messaging"} URL configured`, null);
    return url.replace(/\/+$/, "");
  }

  /** The bearer header for a host. */
  authorization(host: HostName): Record<string, string> {
    const key = host === "otp" ? this.#options.otpApiKey : this.#options.apiKey;
    return key ? { authorization: `Bearer ${key}` } : {};
  }

  /** Sends a request and unwraps `{ data, has_more, request_id }`; throws ApiError on 4xx/5xx. */
  async request<T>(
    host: HostName,
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const response = await this.raw(host, method, path, options);
    const text = await bodyText(response);
    let body: Record<string, unknown> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      throw new ApiError(
        response.status,
        "invalid_response",
        `Not JSON from ${method} ${path}: ${text.slice(0, 200)}`,
        response.headers.get("x-request-id"),
      );
    }
    const requestId = (body.request_id as string | undefined) ?? response.headers.get("x-request-id");
    if (!response.ok) {
      throw new ApiError(
        response.status,
        String(body.error ?? "unknown_error"),
        String(body.message ?? response.statusText),
        requestId,
      );
    }
    const result: ApiResponse<T> = { status: response.status, data: body.data as T, requestId };
    if (typeof body.has_more === "boolean") result.hasMore = body.has_more;
    return result;
  }

  /** Throws the ApiError an error response carries; returns ok responses as they are. */
  async ensureOk(response: Response): Promise<Response> {
    if (response.ok) return response;
    const text = await bodyText(response);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON: fall back to the status text
    }
    throw new ApiError(
      response.status,
      String(body.error ?? "unknown_error"),
      String(body.message ?? (text || response.statusText)),
      (body.request_id as string | undefined) ?? response.headers.get("x-request-id"),
    );
  }

  /** Sends a request and returns the raw Response (event streams, downloads). */
  async raw(host: HostName, method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const url = new URL(this.url(host) + path);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { ...this.authorization(host), ...options.headers };
    let body: BodyInit | undefined;
    let streamed = false;
    const given = options.body;
    // Text, bytes and plain data are told apart first: in Node, merely naming FormData or
    // ReadableStream loads their implementation (undici for FormData; see the constructor).
    if (typeof given === "string" || given instanceof Uint8Array) {
      body = given as BodyInit;
    } else if (given !== undefined && !isPlainData(given) && isBodyObject(given)) {
      body = given as BodyInit;
      streamed = given instanceof ReadableStream;
    } else if (given !== undefined) {
      body = JSON.stringify(given);
      headers["content-type"] ??= "application/json";
    }
    // A streamed body (uploads) must say it is sent while the answer may already come.
    const init: RequestInit & { duplex?: "half" } = { method, headers, body, signal: options.signal };
    if (streamed) init.duplex = "half";
    return this.fetchUrl(url.toString(), init);
  }

  /** Fetches an absolute URL as it is, without the key (signed URLs carry their own credential). */
  async fetchUrl(url: string, init: RequestInit = {}): Promise<Response> {
    try {
      // Called as a plain function: a browser's fetch refuses a `this` other than the window.
      const send = this.#fetch;
      return await send(url, init);
    } catch (error) {
      if ((error as Error).name === "AbortError") throw error;
      throw new ConnectionError(new URL(url).origin, error);
    }
  }
}
