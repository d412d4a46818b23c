/** Rows of the OTP tables: challenges, and the texts of the OTP numbers' threads. */

/** A challenge: the phone to verify, its code, where it stands. */
export interface OtpChallengesTable {
  id: string;
  account_id: string;
  /** The phone to verify, E.164. */
  phone: string;
  /** Six digits, kept in clear: the sandbox texts the right code for `otp text` (never shown by /v1 reads). */
  code: string;
  /** The account's app name when the challenge was made: the confirmation names it. */
  app_name: string;
  /** pending, verified, consumed or expired (spec section 3); reads also apply a passed expires_at. */
  status: "pending" | "verified" | "consumed" | "expired";
  /** Wrong texts counted against this challenge; at 5 it no longer matches. */
  wrong_texts: number;
  expires_at: number;
  verified_at: number | null;
  consumed_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A text of an OTP number's thread with a user's phone, either way. */
export interface OtpTextsTable {
  id: string;
  /** The user's phone, E.164. */
  phone: string;
  /** The OTP number of the thread (the WhatsApp number for WhatsApp texts). */
  otp_number: string;
  channel: "imessage" | "sms" | "whatsapp";
  direction: "inbound" | "outbound";
  text: string;
  /** JSON array of the other members when the text came from a group chat, else null. */
  members: string | null;
  /** Inbound texts: what the service made of it. */
  outcome: string | null;
  /** The challenge the text verified or concerned, if any (never shown across accounts). */
  challenge_id: string | null;
  /** Unique and increasing over the whole table: the threads page on it. */
  created_at: number;
}

/** Every table of the OTP service, as kysely sees it. */
export interface OtpTables {
  otp_challenges: OtpChallengesTable;
  otp_texts: OtpTextsTable;
}
