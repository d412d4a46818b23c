/** Rows of the simulated world: the accounts' numbers, the contacts, and the faults switched on per number. */

/** One of an account's numbers and the channels it sends on. */
export interface NumbersTable {
  handle: string;
  account_id: string;
  /** JSON array of channel names. */
  channels: string;
  label: string;
  whatsapp_api: "linked" | "cloud" | null;
  position: number;
  created_at: number;
}

/** A contact's profile: what decides routing to it and how it answers. */
export interface ContactsTable {
  handle: string;
  imessage: number;
  platform: "ios" | "android";
  whatsapp: number;
  reachable: number;
  read_receipts: number;
  created_at: number;
  updated_at: number;
}

/** The faults switched on for one of the accounts' numbers. */
export interface NumberFaultsTable {
  handle: string;
  offline: number;
  /** Send attempts left that fail with a transient error. */
  transient_remaining: number;
  rate_limited: number;
  /** Escalation of the rate-limit cool-down: 0 is the first (2 min). */
  rate_limit_level: number;
  /** End of the current cool-down; null before the first limited attempt. */
  rate_limited_until: number | null;
  relink_required: number;
  updated_at: number;
}

/** Every table of the simulated world, as kysely sees it. */
export interface WorldTables {
  numbers: NumbersTable;
  contacts: ContactsTable;
  number_faults: NumberFaultsTable;
}
