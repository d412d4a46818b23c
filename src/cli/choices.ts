/**
 * The values of the CLI's enumerated flags and arguments, for commander's `.choices()`. Plain
 * lists, free of zod, so that declaring the commands loads none of the contract's schemas: the
 * status lists are the contract's own (contract/statuses.ts), and test/unit/cli-choices.test.ts
 * holds the others equal to the contract's.
 */

export { CHALLENGE_STATUSES, DELIVERY_STATUSES, MESSAGE_STATUSES } from "../contract/statuses.js";
export { CLOCK_MODES } from "../lib/clock.js";
export { CHAOS_PROFILE_NAMES } from "../contract/chaos-names.js";

/** The channels a message can go by. */
export const CHANNELS = ["imessage", "sms", "whatsapp"] as const;

/** The platforms a contact's phone can be. */
export const PLATFORMS = ["ios", "android"] as const;

/** `send --media-quality`: transcode to the channel's cap, or never. */
export const MEDIA_QUALITIES = ["fit", "original"] as const;

/** The faults a number can be switched into (`simulate fault`). */
export const FAULT_NAMES = ["offline", "online", "transient", "rate-limited", "relink-required"] as const;

/** The OTP host's one fault (`simulate otp-fault`). */
export const OTP_FAULTS = ["unavailable"] as const;

/** The shells `env` writes exports for. */
export const SHELLS = ["bash", "fish", "powershell"] as const;

/** The two hosts, as `openapi --host` names them. */
export const HOSTS = ["messaging", "otp"] as const;

/** `accounts create --whatsapp`: how the account's WhatsApp number is connected. */
export const WHATSAPP_APIS = ["linked", "cloud"] as const;

/** The event names (spec section 6), for the shell completion of `--events`, `trigger` and `wait event`: the contract's own list. */
export { EVENT_TYPES as EVENT_NAMES } from "../contract/names.js";

/** The shells `completion` writes a script for. */
export const COMPLETION_SHELLS = ["bash", "zsh", "fish"] as const;
