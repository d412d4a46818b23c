import { hash } from "node:crypto";

/** 2^48: a draw keeps the first 48 bits of its hash, far finer than any rate or range it decides. */
const SCALE = 2 ** 48;

/**
 * A number in [0, 1), uniform, drawn from a seed and the identity of what is decided (for
 * example `duplicate:e17:w1`): the first 48 bits of SHA-256 over the seed (length first, so no
 * seed and identity can run into each other) and the identity. The same seed and identity always
 * give the same number, whatever else was drawn before or at the same time: there is no stream
 * whose position could depend on timing. One-shot SHA-256 rather than HMAC: an HMAC object costs
 * 20 µs to make here against 3 µs, and nothing about chaos is secret.
 */
export function seededDraw(seed: string, identity: string): number {
  return Number.parseInt(hash("sha256", `${seed.length}:${seed}\n${identity}`, "hex").slice(0, 12), 16) / SCALE;
}

/** A whole number from `min` to `max` (both included), picked by a draw in [0, 1). */
export function pickInRange(draw: number, min: number, max: number): number {
  return min + Math.floor(draw * (max - min + 1));
}
