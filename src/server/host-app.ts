import { randomUUID } from "node:crypto";
import type { Duplex } from "node:stream";
import { getRouterParam, H3, HTTPError, HTTPResponse, type H3Event } from "h3";
import { authenticate, type Account, type KeyKind } from "../domain/accounts/index.js";
import type { JsonObject } from "../contract/common.js";
import type { DomainContext } from "../domain/core/index.js";
import type { SandboxControl } from "../domain/control/index.js";
import { AppError, isAppError, type ErrorCode } from "../lib/app-error.js";
import { clip } from "../lib/bounded-input.js";
import { drainBeforeClosing } from "./drain.js";
import { HostGuard } from "./host-guard.js";
import { discardRest, readJsonBody } from "./request-body.js";
import { idempotencyKeyOf, requireObjectBody, takesIdempotencyKey } from "./required-input.js";
import type { ApiRequest, Method, Reply, Route } from "./route.js";

/** Everything a host app is built from. */
export interface HostAppOptions {
  ctx: DomainContext;
  control: SandboxControl;
  /** Which keys this host takes (spec section 5). */
  keyKind: KeyKind;
  routes: Route[];
  /** Who may talk to the host (Host and Origin checks); default: loopback names and 127.0.0.1 only. */
  guard?: HostGuard;
  /** Told about errors that are bugs (anything but an AppError or a routing error). */
  onUnexpectedError?: (error: unknown, event: H3Event) => void;
}

type Context = { requestId?: string; account?: Account };

/** A request id (`req_` + 24 hex). randomUUID draws from a cached entropy pool: far cheaper per request than randomBytes. */
export const newRequestId = () => `req_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
const requestIdOf = (event: H3Event) => ((event.context as Context).requestId ??= newRequestId());

const STATUS_CODES: Record<number, ErrorCode> = {
  400: "invalid_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "invalid_state",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
  503: "unavailable",
};

/** The JSON response every success and error goes through: the envelope and X-Request-Id. */
function json(
  event: H3Event,
  status: number,
  body: Record<string, unknown>,
  headers?: Record<string, string>,
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestIdOf(event), ...headers },
  });
}

function toErrorResponse(error: unknown, event: H3Event, options: HostAppOptions): Response {
  const requestId = requestIdOf(event);
  dropUnreadBody(event);
  const cause = HTTPError.isError(error) && isAppError(error.cause) ? error.cause : error;
  if (isAppError(cause)) {
    // No `Connection: close` on a 413: node would close the socket while the client still writes
    // and reset it; the rest of the body is read and dropped instead (request-body.ts).
    return json(
      event,
      cause.status,
      { error: cause.code, message: cause.message, request_id: requestId },
      cause.headers && { ...cause.headers },
    );
  }
  if (HTTPError.isError(cause) && !cause.unhandled && cause.status < 500) {
    const status = cause.status;
    const headers: Record<string, string> = {};
    let message = cause.message;
    if (status === 404) message = `No route for ${event.req.method} ${event.url.pathname}`;
    if (status === 405) {
      const allow = cause.headers?.get("allow") ?? "";
      message = `${event.req.method} is not allowed on ${event.url.pathname}${allow ? ` (allowed: ${allow})` : ""}`;
      if (allow) headers.allow = allow;
    }
    return json(
      event,
      status,
      { error: STATUS_CODES[status] ?? "invalid_request", message, request_id: requestId },
      headers,
    );
  }
  options.onUnexpectedError?.(cause, event);
  return json(event, 500, {
    error: "internal_error",
    message: "Unexpected error in msgctl; please report it with this request id",
    request_id: requestId,
  });
}

/**
 * An error answered before the body was read to its end (a path that does not decode, a key
 * refused): the rest is read and dropped as it arrives, as for a 413 (request-body.ts). A body
 * left unread would reset a connection the client asked to close, and a client that writes its
 * whole body before reading would get no answer at all.
 */
function dropUnreadBody(event: H3Event): void {
  const node = event.runtime?.node?.req as
    | (NodeJS.ReadableStream & { complete: boolean; destroy(): void; socket: Duplex | null })
    | undefined;
  if (!node || node.complete) return;
  discardRest(node, 0);
  if (node.socket) drainBeforeClosing(node.socket);
}

/**
 * The route's path params, percent-decoded. An escape that does not decode names nothing: 404
 * not_found, like any unknown or malformed id in the path.
 */
function routeParams(event: H3Event): Record<string, string> {
  try {
    return Object.fromEntries(
      Object.keys(event.context.params ?? {}).map((name) => [
        name,
        getRouterParam(event, name, { decode: true }) ?? "",
      ]),
    );
  } catch {
    throw new AppError(
      "not_found",
      404,
      `Nothing at ${clip(event.url.pathname, 100)}: the path is not valid percent-encoding`,
    );
  }
}

/**
 * What a route handler gets. A class, so that its getters live on one prototype: an object
 * literal with getters, made per request, cost V8 about 2.5 µs each (bench/HISTORY.md, fifth pass).
 */
class HostRequest implements ApiRequest {
  readonly ctx: DomainContext;
  readonly control: SandboxControl;
  readonly requestId: string;
  readonly #account: Account | undefined;
  #params: Record<string, string> | undefined;
  #json: Promise<unknown> | undefined;
  #body: JsonObject | undefined;
  #key: { value: string | undefined } | undefined;

  constructor(
    readonly event: H3Event,
    options: HostAppOptions,
    account: Account | undefined,
  ) {
    this.ctx = options.ctx;
    this.control = options.control;
    this.requestId = requestIdOf(event);
    this.#account = account;
  }

  get account(): Account {
    if (!this.#account) throw new AppError("unauthorized", 401, "This route takes no key");
    return this.#account;
  }

  get params(): Record<string, string> {
    this.#params ??= routeParams(this.event);
    return this.#params;
  }

  get query(): URLSearchParams {
    return this.event.url.searchParams;
  }

  // Fields, not methods: handlers destructure them (`({ ctx, json }) => …`).
  readonly header = (name: string): string | null => this.event.req.headers.get(name);
  readonly json = (): Promise<unknown> => (this.#json ??= readJsonBody(this.event, this.ctx.settings.maxJsonBodyBytes));
  readonly body = (): JsonObject => {
    if (this.#body === undefined) throw new Error("body() on a route that does not declare requiresBody");
    return this.#body;
  };
  readonly idempotencyKey = (): string | undefined => {
    if (this.#key === undefined) throw new Error("idempotencyKey() on a route whose document lists no Idempotency-Key");
    return this.#key.value;
  };

  /** Checks the Idempotency-Key header's form (400 unless absent or 1 to 255 characters). */
  readIdempotencyKey(): void {
    this.#key = { value: idempotencyKeyOf(this.header("idempotency-key")) };
  }

  /** Reads the body a route requires and checks that it is a JSON object (400 otherwise). */
  async readRequiredBody(example: string): Promise<void> {
    this.#body = requireObjectBody(await this.json(), example);
  }
}

function toReplyResponse(event: H3Event, reply: Reply): string {
  const body: Record<string, unknown> = { data: reply.data };
  if (reply.hasMore !== undefined) body.has_more = reply.hasMore;
  body.request_id = requestIdOf(event);
  // A string with status and headers staged on event.res takes h3's fast path; building a
  // web Response per request cost a tenth of the hot path.
  event.res.status = reply.status;
  event.res.headers.set("content-type", "application/json; charset=utf-8");
  event.res.headers.set("x-request-id", body.request_id as string);
  return JSON.stringify(body);
}

/**
 * Every GET route answers HEAD too (RFC 9110 section 9.3.2): the same handler, so the same
 * status and headers; node sends no body for a HEAD and ends an event stream's answer at once.
 * A route with its own HEAD keeps it. The OpenAPI document lists the GET only.
 */
function withHeadRoutes(routes: readonly Route[]): Route[] {
  const hasHead = new Set(routes.filter((route) => route.method === "HEAD").map((route) => route.path));
  return routes.flatMap((route): Route[] =>
    route.method === "GET" && !hasHead.has(route.path) ? [route, { ...route, method: "HEAD" }] : [route],
  );
}

/**
 * Builds one host (messaging or OTP) as an h3 app. Request ids, the `{ data, request_id }`
 * envelope, the `{ error, message, request_id }` shape, 404 and 405 are all made here.
 */
export function createHostApp(options: HostAppOptions): H3 {
  const { ctx } = options;
  const guard = options.guard ?? new HostGuard({ bindHost: "127.0.0.1", allowedHosts: [] });
  const anyHostPaths = new Set(options.routes.filter((route) => route.anyHost).map((route) => route.path));
  const app = new H3({
    silent: true,
    // h3 answers a malformed escape (`/v1/messages/%ff`) with its own 400 before routing; the
    // router sees it raw instead, and `routeParams` makes it the spec's 404.
    allowMalformedURL: true,
    onRequest(event) {
      (event.context as Context).requestId = newRequestId();
      // Before routing, keys and the inspector's files: a refused request learns nothing, not even 404.
      const method = event.req.method;
      guard.check(event, (method === "GET" || method === "HEAD") && anyHostPaths.has(event.url.pathname));
    },
    onError: (error, event) => toErrorResponse(error, event, options),
  });

  const methodsByPath = new Map<string, Method[]>();
  for (const route of withHeadRoutes(options.routes)) {
    methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method]);
    const takesKey = takesIdempotencyKey(route);
    app.on(route.method, route.path, async (event) => {
      const account =
        route.auth === false ? undefined : authenticate(ctx, event.req.headers.get("authorization"), options.keyKind);
      const request = new HostRequest(event, options, account);
      // What the route needs of the request is checked here, before the domain sees any of it.
      if (takesKey) request.readIdempotencyKey();
      if (route.requiresBody) await request.readRequiredBody(route.requiresBody.example);
      const result = await route.handler(request);
      // Answer only once the writes are committed: what was acknowledged survives a crash.
      await ctx.db.committed();
      return result instanceof Response || result instanceof HTTPResponse ? result : toReplyResponse(event, result);
    });
  }
  // A known path with another method is 405 with an Allow header, not 404.
  for (const [path, methods] of methodsByPath) {
    const allow = methods.join(", ");
    app.all(path, () => {
      throw new HTTPError({ status: 405, headers: { allow } });
    });
  }
  return app;
}
