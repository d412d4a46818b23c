import type { H3Event, HTTPResponse } from "h3";
import type { JsonObject } from "../contract/common.js";
import type { Schema } from "../contract/json-schema.js";
import type { Account } from "../domain/accounts/index.js";
import type { DomainContext } from "../domain/core/index.js";
import type { SandboxControl } from "../domain/control/index.js";
import type { TagName } from "./openapi-tags.js";

/** The HTTP methods routes use. */
export type Method = "GET" | "HEAD" | "POST" | "PATCH" | "PUT" | "DELETE";

/** What a route handler gets: the authenticated account, path params, query and body readers. */
export interface ApiRequest {
  readonly event: H3Event;
  readonly ctx: DomainContext;
  readonly control: SandboxControl;
  readonly account: Account;
  readonly requestId: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** A request header. */
  header(name: string): string | null;
  /** The JSON body (undefined when empty); 415 on another content type, 413 over the limit. */
  json(): Promise<unknown>;
  /** The JSON object body of a route that `requiresBody`, read and checked before the handler ran. */
  body(): JsonObject;
  /**
   * The Idempotency-Key header of a route whose document lists it, checked before the handler ran:
   * undefined when absent (a key that is not 1 to 255 characters was answered 400).
   */
  idempotencyKey(): string | undefined;
}

/** A successful answer: `data` is wrapped as `{ data, request_id }` (lists add `has_more`). */
export interface Reply {
  status: number;
  data: unknown;
  hasMore?: boolean;
}

/** One success answer of a route, as the OpenAPI document shows it. */
export interface ResponseDoc {
  description: string;
  /** The `data` of `{ data, request_id }`, or the item of a list (`list: true`). */
  schema?: Schema;
  list?: boolean;
  /** An answer that is not the JSON envelope: an event stream, a page, raw bytes, a document. */
  raw?: "text/event-stream" | "text/html" | "application/octet-stream" | "application/json" | "*/*";
}

/**
 * What the OpenAPI document says of a route, built from the same contract schemas the domain
 * validates with and builds its answers to (docs/architecture.md, "One wire contract").
 */
export interface RouteDoc {
  summary: string;
  description?: string;
  /** The group it is listed under (each has its description in openapi-tags.ts). */
  tag: TagName;
  /** The JSON request body. */
  body?: Schema;
  /** The body may be left out (the document marks a body required otherwise). */
  bodyOptional?: boolean;
  /** A body that is not JSON: multipart files (POST /v1/attachments) or raw bytes (a presigned PUT). */
  upload?: "multipart" | "bytes";
  /** The query parameters (an object schema). */
  query?: Schema;
  /** Path parameters by name, with what they are. */
  params?: Record<string, string>;
  /**
   * Request headers besides Authorization, by name, with what they do. A route that lists
   * `Idempotency-Key` has the key's form checked by the server before its handler runs.
   */
  headers?: Record<string, string>;
  /** Success statuses. */
  responses: Record<number, ResponseDoc>;
  /** Error statuses this route answers besides those every route can (400, 401, 403, 404, 405, 413). */
  errors?: number[];
  /**
   * The error codes a status answers, each with when (spec 7). Every code
   * that status can carry on this route: the document lists them and makes `error` an enum there.
   */
  errorCodes?: Partial<Record<number, Record<string, string>>>;
}

/** A route of a host. `auth: false` only for /healthz, /openapi.json and the inspector. */
export interface Route {
  method: Method;
  path: string;
  auth?: boolean;
  /** Answers GET and HEAD whatever the Host header (GET /healthz only: health checks by service name). */
  anyHost?: boolean;
  /**
   * The route needs a JSON object body: the server answers 400 before the handler runs when there
   * is none (`body: required, e.g. <example>`) or it is another JSON value; `body()` gives it.
   */
  requiresBody?: { example: string };
  /** Its entry in the host's OpenAPI document. */
  doc: RouteDoc;
  handler(request: ApiRequest): Reply | Response | HTTPResponse | Promise<Reply | Response | HTTPResponse>;
}

/** `{ data }` with a status (200 by default). */
export function ok(data: unknown, status = 200): Reply {
  return { status, data };
}

/** A list page: `{ data, has_more }`. */
export function page(data: unknown[], hasMore: boolean): Reply {
  return { status: 200, data, hasMore };
}
