/** Machine codes of every error the sandbox answers with (spec section 7, and the sandbox's own: docs/control-api.md). */
export type ErrorCode =
  | "invalid_request"
  | "invalid_attachments"
  | "invalid_url"
  | "invalid_from_handle"
  | "invalid_phone"
  | "invalid_state"
  | "unsupported"
  | "unauthorized"
  | "forbidden"
  | "forbidden_host"
  | "forbidden_origin"
  | "not_found"
  | "method_not_allowed"
  | "not_a_group"
  | "not_verified"
  | "already_consumed"
  | "expired"
  | "payload_too_large"
  | "request_too_large"
  | "request_timeout"
  | "settle_timeout"
  | "unreachable"
  | "range_not_satisfiable"
  | "unsupported_media_type"
  | "rate_limited"
  | "unavailable"
  | "internal_error"
  // Starting a sandbox (serve, startSandbox), never an HTTP answer:
  | "database_locked"
  | "sandbox_running"
  | "port_in_use"
  | "invalid_fixture"
  | "invalid_snapshot";

/** The one error the domain throws; the HTTP edge turns it into `{ error, message, request_id }`. */
export class AppError extends Error {
  override readonly name = "AppError";
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    /** Headers the answer must carry besides the usual ones (429's Retry-After, 416's Content-Range). */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}

/** Tells an AppError from anything else (across module copies, like h3's `isError`). */
export function isAppError(value: unknown): value is AppError {
  return value instanceof Error && value.name === "AppError" && "code" in value && "status" in value;
}

/** 400 invalid_request: the body or query broke a rule; the message names the field. */
export const invalidRequest = (message: string) => new AppError("invalid_request", 400, message);
/** 404 not_found: unknown id, malformed id, or another account's. */
export const notFound = (what: string) => new AppError("not_found", 404, `${what} not found`);
/** 409 invalid_state: the action is not allowed in the resource's current state. */
export const invalidState = (message: string) => new AppError("invalid_state", 409, message);
