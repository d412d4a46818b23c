/** Shapes of the API's resources, as clients see them (spec section 2, SANDBOX.md). */

/** A number of the account (spec 4.1). */
export interface NumberResource {
  handle: string;
  channels: string[];
  label: string;
  status: string;
  whatsapp_api?: "linked" | "cloud";
}

/** The sandbox clock. */
export interface ClockView {
  now: string;
  mode: "real" | "manual";
}

/** An event as the control API shows it. */
export interface EventView {
  id: string;
  seq: number;
  type: string;
  created_at: string;
  payload: { type: string } & Record<string, unknown>;
}

/** An account as reset (and the ready line) shows it. */
export interface AccountView {
  name: string;
  api_key: string | null;
  otp_api_key: string | null;
  numbers: NumberResource[];
}
