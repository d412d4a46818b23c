/**
 * The probes of a webhook handler check, in the order they are sent (docs/check.md says what
 * each tests). No zod here, so the CLI and scenario files can read the list for free.
 */
export const CHECK_PROBES = [
  "valid_event",
  "duplicate_event",
  "tampered_body",
  "wrong_secret",
  "stale_timestamp",
  "future_timestamp",
  "missing_signature",
  "missing_v1",
  "v1_not_hex",
  "read_before_delivered",
  "delivered_after_read",
  "unknown_field",
] as const;

/** A probe of the check's battery. */
export type CheckProbe = (typeof CHECK_PROBES)[number];
