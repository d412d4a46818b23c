import type { H3Event, HTTPResponse } from "h3";
import type { Account } from "../domain/accounts/index.js";
import type { DomainContext } from "../domain/core/index.js";
import type { SandboxControl } from "../domain/sandbox/index.js";

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
}

/** A successful answer: `data` is wrapped as `{ data, request_id }` (lists add `has_more`). */
export interface Reply {
  status: number;
  data: unknown;
  hasMore?: boolean;
}

/** A route of a host. `auth: false` only for /healthz and the inspector. */
export interface Route {
  method: Method;
  path: string;
  auth?: boolean;
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
