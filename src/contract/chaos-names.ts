/**
 * The names of seeded chaos, defined once: the contract's schemas (and so the OpenAPI document),
 * the domain's profiles and the CLI's `--profile` choices read these lists. No zod here, so the
 * CLI loads them for free.
 */

/** The chaos profiles, gentlest first (docs/chaos.md). */
export const CHAOS_PROFILE_NAMES = ["mild", "rough"] as const;
/** A chaos profile. */
export type ChaosProfileName = (typeof CHAOS_PROFILE_NAMES)[number];

/** What chaos does to a delivery: the values of its `chaos` field and of the `X-Msgctl-Chaos` header. */
export const DELIVERY_CHAOS_KINDS = ["duplicate", "reordered", "delayed"] as const;
/** What chaos did to a delivery. */
export type DeliveryChaosKind = (typeof DELIVERY_CHAOS_KINDS)[number];

/** Every kind of decision chaos makes, as its log and its rates name them. */
export const CHAOS_KINDS = [...DELIVERY_CHAOS_KINDS, "send_error", "number_offline", "receipt_lost"] as const;
/** A kind of chaos decision. */
export type ChaosKind = (typeof CHAOS_KINDS)[number];
