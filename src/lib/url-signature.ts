import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Signed URLs: the signature in the query is the credential, so a URL can
 * be handed to a browser, an `<img>` or `curl` without the API key. It covers the method, the
 * path, the expiry and whatever else the URL promises (the content type of a presigned PUT).
 */

/** Hex HMAC-SHA256 over the parts joined by newlines. */
export function signParts(secret: string, parts: readonly (string | number)[]): string {
  return createHmac("sha256", secret).update(parts.join("\n"), "utf8").digest("hex");
}

/** True when `signature` is the hex signature of `parts` (compared in constant time). */
export function verifyParts(secret: string, parts: readonly (string | number)[], signature: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(signature)) return false;
  return timingSafeEqual(Buffer.from(signParts(secret, parts), "hex"), Buffer.from(signature, "hex"));
}
