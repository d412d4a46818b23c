import { isoTime } from "../../lib/clock.js";
import { signParts, verifyParts } from "../../lib/url-signature.js";
import { readMeta, writeMeta } from "../../store/core/index.js";
import { cacheOf, type DomainContext } from "../core/index.js";

/** How long a download URL works (spec section 8: "about 1 hour"), on the sandbox clock. */
const DOWNLOAD_URL_LIFETIME_MS = 60 * 60 * 1000;
/** How long a presigned upload URL works, on the sandbox clock. */
const UPLOAD_URL_LIFETIME_MS = 15 * 60 * 1000;

const SECRET_KEY = "attachments.url_secret";

/** The sandbox's URL-signing key: made once per database (and again after a reset), kept in meta. */
function secretOf(ctx: DomainContext): string {
  const cache = cacheOf<string, string>(ctx, "attachments.url-secret");
  let secret = cache.get(SECRET_KEY) ?? readMeta(ctx.db, SECRET_KEY);
  if (secret === undefined) {
    const made = ctx.ids.token(48);
    ctx.db.transaction(() => writeMeta(ctx.db, SECRET_KEY, made));
    secret = made;
  }
  cache.set(SECRET_KEY, secret);
  return secret;
}

/** Unix seconds a URL made now stays valid until: at least `lifetime`, never less. */
const expiryOf = (ctx: DomainContext, lifetimeMs: number) => Math.ceil((ctx.clock.now() + lifetimeMs) / 1000);

/** A signed URL and when it stops working. */
export interface SignedUrl {
  url: string;
  expiresAt: string;
}

const downloadPath = (id: string) => `/media/${id}`;
const uploadPath = (id: string) => `/uploads/${id}`;

/** A fresh download URL for an attachment: `GET {base}/media/:id?expires=…&signature=…`. */
export function signDownloadUrl(ctx: DomainContext, id: string): SignedUrl {
  const expires = expiryOf(ctx, DOWNLOAD_URL_LIFETIME_MS);
  const signature = signParts(secretOf(ctx), ["GET", downloadPath(id), expires]);
  return {
    url: `${ctx.urls.messaging}${downloadPath(id)}?expires=${expires}&signature=${signature}`,
    expiresAt: isoTime(expires * 1000),
  };
}

/** A presigned upload URL: `PUT {base}/uploads/:id?expires=…&signature=…`, bound to its content type. */
export function signUploadUrl(ctx: DomainContext, id: string, contentType: string): SignedUrl & { expiresMs: number } {
  const expires = expiryOf(ctx, UPLOAD_URL_LIFETIME_MS);
  const signature = signParts(secretOf(ctx), ["PUT", uploadPath(id), expires, contentType]);
  return {
    url: `${ctx.urls.messaging}${uploadPath(id)}?expires=${expires}&signature=${signature}`,
    expiresAt: isoTime(expires * 1000),
    expiresMs: expires * 1000,
  };
}

/** The query of a signed URL, as received. */
export interface SignedQuery {
  expires: string | null;
  signature: string | null;
}

/** Why a signed URL was refused, or undefined when it holds. */
export type SignatureProblem = "malformed" | "mismatch" | "expired";

function check(
  ctx: DomainContext,
  parts: (expires: number) => (string | number)[],
  query: SignedQuery,
): SignatureProblem | undefined {
  const { expires, signature } = query;
  if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return "malformed";
  if (!verifyParts(secretOf(ctx), parts(Number(expires)), signature)) return "mismatch";
  if (ctx.clock.now() > Number(expires) * 1000) return "expired";
  return undefined;
}

/** Checks a download URL's signature and expiry. */
export function checkDownloadSignature(
  ctx: DomainContext,
  id: string,
  query: SignedQuery,
): SignatureProblem | undefined {
  return check(ctx, (expires) => ["GET", downloadPath(id), expires], query);
}

/** Checks a presigned upload URL's signature (which covers the content type) and expiry. */
export function checkUploadSignature(
  ctx: DomainContext,
  id: string,
  contentType: string,
  query: SignedQuery,
): SignatureProblem | undefined {
  return check(ctx, (expires) => ["PUT", uploadPath(id), expires, contentType], query);
}
