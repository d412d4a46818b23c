/**
 * The status values of messages, OTP challenges and webhook deliveries, defined once: the
 * contract's schemas (and so the OpenAPI document), the domain's status tables and the CLI's
 * `--status` choices all read these lists. No zod here, so the CLI loads them for free.
 */

/** Message status values (spec section 3). */
export const MESSAGE_STATUSES = ["queued", "sent", "delivered", "read", "failed", "unsent"] as const;
/** A message status (spec section 3). */
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Challenge status values (spec section 3, OTP challenge status). */
export const CHALLENGE_STATUSES = ["pending", "verified", "consumed", "expired"] as const;
/** A challenge status. */
export type ChallengeStatus = (typeof CHALLENGE_STATUSES)[number];

/** Every webhook delivery status: the ladder's pending and failed, and the sandbox's own three. */
export const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "abandoned", "dropped"] as const;
/** A delivery status. */
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
