import type { DeliveryConnections } from "./connections.js";
import { pinnedDispatcher } from "./pinned-lookup.js";

/** What one POST to a receiver came to. */
export interface PostOutcome {
  /** A 2xx arrived within the window (spec section 6 delivery rule 1). */
  acknowledged: boolean;
  statusCode: number | null;
  error: string | null;
  /** The sandbox stopped or reset mid-request: nothing should be recorded. */
  aborted: boolean;
}

/** How to make one POST. */
export interface PostOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** The acknowledgement window, real milliseconds. */
  timeoutMs: number;
  /** Aborted when the sandbox stops or resets. */
  signal: AbortSignal;
  /** Connect only to these addresses (the ones the URL policy checked), never resolving again. */
  pinTo?: string[];
}

const ABORTED: PostOutcome = { acknowledged: false, statusCode: null, error: "aborted", aborted: true };

const noAnswer = (timeoutMs: number): PostOutcome => ({ acknowledged: false, statusCode: null, error: `no response within ${timeoutMs} ms`, aborted: false });

/** The outcome of an answer: any 2xx acknowledges; a 3xx is a redirect not followed; the rest failed. */
function answered(status: number, location: string | null | undefined): PostOutcome {
  if (status >= 200 && status < 300) return { acknowledged: true, statusCode: status, error: null, aborted: false };
  if (status >= 300 && status < 400) {
    return { acknowledged: false, statusCode: status, error: `redirect${location ? ` to ${location}` : ""} not followed`, aborted: false };
  }
  return { acknowledged: false, statusCode: status, error: `receiver answered ${status}`, aborted: false };
}

function describeFailure(error: unknown): string {
  // fetch reports network errors as TypeError("fetch failed") with the socket error as cause;
  // undici's request throws the socket error itself, and its own errors have UND_ERR_ codes.
  const { code, cause } = error as { code?: string; cause?: { code?: string; message?: string } };
  const socketCode = code && !code.startsWith("UND_ERR") ? code : cause?.code;
  if (socketCode) return `connection failed (${socketCode})`;
  return `request failed: ${cause?.message ?? (error as Error).message ?? String(error)}`;
}

/**
 * POSTs a delivery once through an injected fetch (tests stub the network this way). Redirects
 * are not followed (a 3xx is a failed attempt). The window is a plain timer rather than
 * AbortSignal.timeout so that a test can drive it with fake timers.
 */
export async function postWebhook(fetchFn: typeof fetch, options: PostOptions): Promise<PostOutcome> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), options.timeoutMs);
  const signal = AbortSignal.any([timeout.signal, options.signal]);
  const pinned = options.pinTo ? await pinnedDispatcher(options.pinTo) : undefined;
  try {
    const init = { method: "POST", headers: options.headers, body: options.body, redirect: "manual", signal, dispatcher: pinned?.dispatcher } as RequestInit;
    const response = await fetchFn(options.url, init);
    // Only the status matters; drop the body so the connection is freed.
    await response.body?.cancel().catch(() => {});
    return answered(response.status, response.headers.get("location"));
  } catch (error) {
    if (options.signal.aborted) return ABORTED;
    if (timeout.signal.aborted) return noAnswer(options.timeoutMs);
    return { acknowledged: false, statusCode: null, error: describeFailure(error), aborted: false };
  } finally {
    clearTimeout(timer);
    await pinned?.close();
  }
}

/**
 * POSTs a delivery once over the endpoint's kept-alive connections (connections.ts), pinned to
 * `pinTo` when given: undici's
 * request, with none of fetch's per-request machinery. Same outcomes as `postWebhook`: the
 * window covers the status and headers; the body is dropped.
 */
export async function postOverPool(connections: DeliveryConnections, options: PostOptions): Promise<PostOutcome> {
  if (options.signal.aborted) return ABORTED;
  const { origin, path } = connections.target(options.url);
  const pool = await connections.pool(origin, options.pinTo);
  const request = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    request.abort();
  }, options.timeoutMs);
  const stop = () => request.abort();
  options.signal.addEventListener("abort", stop, { once: true });
  try {
    const response = await pool.request({ path, method: "POST", headers: options.headers, body: options.body, signal: request.signal });
    const location = response.headers.location;
    const outcome = answered(response.statusCode, Array.isArray(location) ? location[0] : location);
    // The body is read to its end and dropped, so that the connection serves the next attempt;
    // one over 64 KiB, or that does not end within the window, closes the connection instead.
    await response.body.dump({ limit: 64 * 1024, signal: request.signal }).catch(() => {});
    return outcome;
  } catch (error) {
    if (options.signal.aborted) return ABORTED;
    if (timedOut) return noAnswer(options.timeoutMs);
    return { acknowledged: false, statusCode: null, error: describeFailure(error), aborted: false };
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener("abort", stop);
  }
}
