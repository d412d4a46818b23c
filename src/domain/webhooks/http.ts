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

function describeFailure(error: unknown): string {
  // fetch reports network errors as TypeError("fetch failed") with the socket error as cause.
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `connection failed (${cause.code})`;
  return `request failed: ${cause?.message ?? (error as Error).message ?? String(error)}`;
}

/**
 * POSTs a delivery once. Redirects are not followed (a 3xx is a failed attempt). The window is a
 * plain timer rather than AbortSignal.timeout so that a test can drive it with fake timers.
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
    const status = response.status;
    if (status >= 200 && status < 300) return { acknowledged: true, statusCode: status, error: null, aborted: false };
    if (status >= 300 && status < 400) {
      const location = response.headers.get("location");
      return { acknowledged: false, statusCode: status, error: `redirect${location ? ` to ${location}` : ""} not followed`, aborted: false };
    }
    return { acknowledged: false, statusCode: status, error: `receiver answered ${status}`, aborted: false };
  } catch (error) {
    if (options.signal.aborted) return { acknowledged: false, statusCode: null, error: "aborted", aborted: true };
    if (timeout.signal.aborted) {
      return { acknowledged: false, statusCode: null, error: `no response within ${options.timeoutMs} ms`, aborted: false };
    }
    return { acknowledged: false, statusCode: null, error: describeFailure(error), aborted: false };
  } finally {
    clearTimeout(timer);
    await pinned?.close();
  }
}
