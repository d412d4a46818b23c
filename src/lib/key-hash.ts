import { hash, timingSafeEqual } from "node:crypto";

/** SHA-256 hex of an API key: keys are stored only as this, never in clear. */
export function hashKey(key: string): string {
  // One-shot: a quarter of createHash's time (every request hashes its key).
  return hash("sha256", key);
}

/** Compares two hex digests in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Which host a key is for, by its prefix (spec section 5); undefined for anything else. */
export function keyKind(key: string): "messaging" | "otp" | undefined {
  if (/^sk_(live|test)_[A-Za-z0-9_]+$/.test(key)) return "messaging";
  if (/^otp_live_[A-Za-z0-9_]+$/.test(key)) return "otp";
  return undefined;
}
