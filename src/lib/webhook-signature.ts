import { createHmac, timingSafeEqual } from "node:crypto";

/** The header every delivery carries (spec section 5). */
export const SIGNATURE_HEADER = "X-service-Signature";

/** The replay window the spec recommends, in seconds (spec section 8). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Hex HMAC-SHA256 of `<t>.<raw body>` keyed by the whole secret string (`whsec_` included). */
function computeSignature(secret: string, timestamp: number, rawBody: string | Uint8Array): string {
  const hmac = createHmac("sha256", secret);
  hmac.update(`${timestamp}.`, "utf8");
  hmac.update(rawBody);
  return hmac.digest("hex");
}

/** The `X-service-Signature` value for a body signed at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, timestamp: number, rawBody: string | Uint8Array): string {
  return `t=${timestamp},v1=${computeSignature(secret, timestamp, rawBody)}`;
}

/** A parsed signature header: its timestamp and every `v1` signature in it. */
export interface ParsedSignature {
  timestamp: number;
  signatures: string[];
}

/**
 * Parses `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`. Unknown schemes are ignored (room for a
 * future `v2`); returns undefined when `t` or every `v1` is missing or malformed.
 */
export function parseSignatureHeader(header: string): ParsedSignature | undefined {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") {
      if (!/^\d{1,12}$/.test(value)) return undefined;
      timestamp = Number(value);
    } else if (key === "v1" && /^[0-9a-f]{64}$/i.test(value)) {
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

/** Why a signature does not verify. */
export type VerifyFailure =
  | "missing_header"
  | "malformed_header"
  | "stale_timestamp"
  | "signature_mismatch"
  | "body_not_raw";

/** The outcome of verifyWebhook: `ok`, or the reason with a sentence for logs. */
export type VerifyResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: VerifyFailure; message: string; timestamp?: number };

/** Options of verifyWebhook. */
export interface VerifyOptions {
  /** Largest accepted |now - t|, seconds (default 300, spec section 8). */
  toleranceSeconds?: number;
  /** The time to check `t` against: a Date or milliseconds since the epoch (default: now). */
  now?: Date | number;
}

/**
 * Verifies a delivery's `X-service-Signature` the way spec section 5 describes: parse `t` and
 * `v1`, reject a `t` outside the replay window, recompute the HMAC over the raw, unparsed body
 * and compare in constant time. Never throws: it returns `{ ok: true }` or the reason.
 *
 * For tests, where msgctl is a development dependency: production code verifies with a few lines
 * of its own and no msgctl (docs/verify.md in this package).
 *
 * @example
 * const result = verifyWebhook(received.rawBody, received.headers["x-service-signature"], secret);
 * expect(result.ok, result.ok ? "" : result.message).toBe(true);
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  header: string | string[] | null | undefined,
  secret: string,
  options: VerifyOptions = {},
): VerifyResult {
  if (typeof rawBody !== "string" && !(rawBody instanceof Uint8Array)) {
    return {
      ok: false,
      reason: "body_not_raw",
      message:
        "The body must be the raw request body (a string or Buffer), not parsed JSON: re-serialising changes the bytes that were signed",
    };
  }
  const value = Array.isArray(header) ? header.join(",") : header;
  if (!value) return { ok: false, reason: "missing_header", message: `No ${SIGNATURE_HEADER} header on the request` };
  const parsed = parseSignatureHeader(value);
  if (!parsed) {
    return {
      ok: false,
      reason: "malformed_header",
      message: `${SIGNATURE_HEADER} must look like t=<unix seconds>,v1=<64 hex characters>`,
    };
  }

  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowMs = options.now === undefined ? Date.now() : Number(options.now);
  const skew = Math.abs(Math.floor(nowMs / 1000) - parsed.timestamp);
  if (skew > tolerance) {
    return {
      ok: false,
      reason: "stale_timestamp",
      message: `The signature's timestamp is ${skew} s away from now, outside the ${tolerance} s replay window`,
      timestamp: parsed.timestamp,
    };
  }

  const expected = Buffer.from(computeSignature(secret, parsed.timestamp, rawBody), "hex");
  const matches = parsed.signatures.some((signature) => timingSafeEqual(expected, Buffer.from(signature, "hex")));
  if (!matches) {
    return {
      ok: false,
      reason: "signature_mismatch",
      message:
        "No v1 signature matches: check the secret (the whole whsec_… string) and that the body is the raw, unparsed bytes",
      timestamp: parsed.timestamp,
    };
  }
  return { ok: true, timestamp: parsed.timestamp };
}
