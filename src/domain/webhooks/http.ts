import type { Dispatcher } from "undici";
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

const NO_ANSWER = "no response within";

const noAnswer = (timeoutMs: number): PostOutcome => ({
  acknowledged: false,
  statusCode: null,
  error: `${NO_ANSWER} ${timeoutMs} ms`,
  aborted: false,
});

/** True when the window passed with no answer (rather than the connection failing). */
export const timedOut = (outcome: PostOutcome): boolean =>
  outcome.statusCode === null && outcome.error?.startsWith(NO_ANSWER) === true;

/** How much of a 4xx answer's body is kept to find its first line. */
const ANSWER_HEAD_BYTES = 1024;
/** The longest first line an attempt's `error` quotes. */
const ANSWER_LINE_CHARS = 200;

/**
 * The first line of a receiver's 4xx answer (`invalid signature`), for the attempt's `error`: an
 * app that refuses a delivery says why, and that is what its developer needs to see (a 5xx is the
 * app failing, not refusing). Control characters go; a long line is cut.
 */
function firstLineOf(head: string): string {
  const line = (head.split(/\r?\n/).find((text) => text.trim() !== "") ?? "").replace(/[\p{Cc}\p{Cf}]/gu, " ").trim();
  return line.length > ANSWER_LINE_CHARS ? `${line.slice(0, ANSWER_LINE_CHARS - 1)}…` : line;
}

/** True for a status whose answer's first line goes into the attempt's `error`. */
const isRefusal = (status: number) => status >= 400 && status < 500;

/** A 4xx outcome with the first line of what the receiver said, when it said anything. */
function withAnswer(outcome: PostOutcome, head: string): PostOutcome {
  if (outcome.statusCode === null || !isRefusal(outcome.statusCode) || !outcome.error) return outcome;
  const line = firstLineOf(head);
  return line ? { ...outcome, error: `${outcome.error}: ${line}` } : outcome;
}

/** The outcome of an answer: any 2xx acknowledges; a 3xx is a redirect not followed; the rest failed. */
function answered(status: number, location: string | null | undefined): PostOutcome {
  if (status >= 200 && status < 300) return { acknowledged: true, statusCode: status, error: null, aborted: false };
  if (status >= 300 && status < 400) {
    return {
      acknowledged: false,
      statusCode: status,
      error: `redirect${location ? ` to ${location}` : ""} not followed`,
      aborted: false,
    };
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
    const init = {
      method: "POST",
      headers: options.headers,
      body: options.body,
      redirect: "manual",
      signal,
      dispatcher: pinned?.dispatcher,
    } as RequestInit;
    const response = await fetchFn(options.url, init);
    const outcome = answered(response.status, response.headers.get("location"));
    // The status decides; a 4xx body is read for its first line, any other is dropped.
    if (isRefusal(response.status))
      return withAnswer(outcome, (await response.text().catch(() => "")).slice(0, ANSWER_HEAD_BYTES));
    await response.body?.cancel().catch(() => {});
    return outcome;
  } catch (error) {
    if (options.signal.aborted) return ABORTED;
    if (timeout.signal.aborted) return noAnswer(options.timeoutMs);
    return { acknowledged: false, statusCode: null, error: describeFailure(error), aborted: false };
  } finally {
    clearTimeout(timer);
    await pinned?.close();
  }
}

/** A body over this size is not read to its end: the connection is closed instead. */
const MAX_DRAINED_BODY = 64 * 1024;

/**
 * POSTs a delivery once over the endpoint's kept-alive connections (connections.ts), pinned to
 * `pinTo` when given. It goes through undici's `dispatch` with a handler of its own (below)
 * rather than `request`: no Request, body stream, AbortController or listener per attempt,
 * which were a fifth of an attempt's cost (bench/HISTORY.md). Same outcomes as `postWebhook`:
 * the window covers the status and headers; the body is dropped.
 */
export function postOverPool(connections: DeliveryConnections, options: PostOptions): Promise<PostOutcome> {
  if (options.signal.aborted) return Promise.resolve(ABORTED);
  const { origin, path } = connections.target(options.url);
  const pool = connections.pool(origin, options.pinTo);
  // Sent before this returns when the pool exists: whatever runs next (the next attempt's
  // preparation) runs while the request is in flight, not before it leaves.
  if (!(pool instanceof Promise)) return dispatchPost(connections, pool, origin, path, options);
  return pool.then((loaded) =>
    options.signal.aborted ? ABORTED : dispatchPost(connections, loaded, origin, path, options),
  );
}

function dispatchPost(
  connections: DeliveryConnections,
  pool: Dispatcher,
  origin: string,
  path: string,
  options: PostOptions,
): Promise<PostOutcome> {
  return new Promise<PostOutcome>((resolve) => {
    const handler = new PostHandler(options.timeoutMs, (outcome) => {
      connections.untrack(options.signal, handler);
      resolve(outcome);
    });
    connections.track(options.signal, handler);
    try {
      pool.dispatch({ origin, path, method: "POST", headers: options.headers, body: options.body }, handler);
    } catch (error) {
      // A request undici refuses outright (a header it rejects) is a failed attempt, as with request().
      handler.onResponseError(undefined, error as Error);
    }
  });
}

/**
 * One POST's answer as undici's dispatch hands it over: the status decides the outcome; the body
 * is read to its end and dropped, so that the connection serves the next attempt (a 4xx answer's
 * first bytes are kept for the first line of what the receiver said). A body over 64 KiB, or that
 * does not end within the window, closes the connection instead.
 */
export class PostHandler implements Dispatcher.DispatchHandler {
  readonly #timer: NodeJS.Timeout;
  readonly #timeoutMs: number;
  readonly #done: (outcome: PostOutcome) => void;
  #controller: Dispatcher.DispatchController | undefined;
  /** The outcome once the status arrived. */
  #answer: PostOutcome | undefined;
  #stopped: "timeout" | "aborted" | undefined;
  #received = 0;
  #finished = false;
  /** The start of a 4xx answer's body, for its first line. */
  #head: Buffer[] | undefined;

  constructor(timeoutMs: number, done: (outcome: PostOutcome) => void) {
    this.#timeoutMs = timeoutMs;
    this.#done = done;
    this.#timer = setTimeout(() => this.#stop("timeout"), timeoutMs);
  }

  /** The sandbox stops or resets: the request is abandoned, reported as aborted. */
  abort(): void {
    this.#stop("aborted");
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#stopped) controller.abort(new Error(this.#stopped));
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    const location = headers.location;
    this.#answer = answered(statusCode, Array.isArray(location) ? location[0] : location);
    if (isRefusal(statusCode)) this.#head = [];
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#head && this.#received < ANSWER_HEAD_BYTES)
      this.#head.push(chunk.subarray(0, ANSWER_HEAD_BYTES - this.#received));
    this.#received += chunk.length;
    if (this.#received > MAX_DRAINED_BODY) controller.abort(new Error("body over 64 KiB"));
  }

  onResponseEnd(): void {
    this.#finish(
      this.#answer ?? { acknowledged: false, statusCode: null, error: "request failed: no status", aborted: false },
    );
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.#stopped === "aborted") return this.#finish(ABORTED);
    // The status arrived: the body's fate (too long, cut off) does not change the outcome.
    if (this.#answer) return this.#finish(this.#answer);
    if (this.#stopped === "timeout") return this.#finish(noAnswer(this.#timeoutMs));
    this.#finish({ acknowledged: false, statusCode: null, error: describeFailure(error), aborted: false });
  }

  #stop(reason: "timeout" | "aborted"): void {
    if (this.#finished || this.#stopped) return;
    this.#stopped = reason;
    // Before the request started, onRequestStart aborts it.
    this.#controller?.abort(new Error(reason));
  }

  #finish(outcome: PostOutcome): void {
    if (this.#finished) return;
    this.#finished = true;
    clearTimeout(this.#timer);
    this.#done(
      this.#head && outcome === this.#answer
        ? withAnswer(outcome, Buffer.concat(this.#head).toString("utf8"))
        : outcome,
    );
  }
}
