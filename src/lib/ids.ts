import { randomBytes, randomUUID } from "node:crypto";

/** Where ids and secrets come from; passed in so tests can make them predictable. */
export interface IdSource {
  uuid(): string;
  /** A random token of base62 characters, e.g. for keys and webhook secrets. */
  token(length: number): string;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Ids from node:crypto. */
export function cryptoIds(): IdSource {
  return {
    uuid: () => randomUUID(),
    token(length) {
      // 248 = 62 * 4: rejecting bytes above it keeps every character equally likely.
      let out = "";
      while (out.length < length) {
        for (const byte of randomBytes(length * 2)) {
          if (byte < 248 && out.length < length) out += BASE62[byte % 62];
        }
      }
      return out;
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID in canonical text form. */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}
