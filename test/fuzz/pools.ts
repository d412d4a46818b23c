import type { Prng } from "./prng.js";

/** The default fixture's keys and handles. */
export const KEYS = { messaging: "sk_test_acme_0000000000000000", otp: "otp_live_acme_000000000000000" } as const;
/** The default fixture's first number. */
export const MAIN = "+14155550101";
/** The default fixture's iPhone contact. */
export const IPHONE = "+14155550191";

/** Real ids and handles of the running sandbox, so that hostile input reaches the rules behind the lookups. */
export interface Pools {
  messageIds: string[];
  inboundIds: string[];
  conversationIds: string[];
  webhookIds: string[];
  deliveryIds: string[];
  numbers: string[];
  contacts: string[];
}

/** One of `items`, or `fallback` when there are none. */
export const anyOf = <T>(rng: Prng, items: T[], fallback: T) => (items.length > 0 ? rng.pick(items) : fallback);
