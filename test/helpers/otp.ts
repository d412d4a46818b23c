import { expect } from "vitest";
import type { TestSandbox } from "./sandbox.js";

/** OTP keys of OTP_FIXTURE's accounts (Acme's is the default key of test/helpers/sandbox.ts). */
export const OTP_KEYS = {
  acme: "otp_live_acme_000000000000000",
  beta: "otp_live_beta_000000000000000",
  gamma: "otp_live_gamma_00000000000000",
  delta: "otp_live_delta_00000000000000",
  frozen: "otp_live_frozen_0000000000000",
} as const;

/** The OTP numbers of OTP_FIXTURE (the shipped fixture's). */
export const OTP_NUMBER = "+14155550190";
export const OTP_WHATSAPP = "+14155550189";

/** A phone that verifies in the tests (fictional, default profile: iMessage, WhatsApp). */
export const PHONE = "+14155550123";

/** A second phone, for texts from someone other than the challenge's phone. */
export const OTHER_PHONE = "+14155550124";

const account = (name: string, key: string, extra: Record<string, unknown> = {}) => ({
  name,
  api_key: `sk_test_${name.toLowerCase()}_${"0".repeat(16)}`,
  otp_api_key: key,
  numbers: [],
  ...extra,
});

/**
 * Five accounts: Acme (app name "Acme Rewards", the default keys), Beta, Gamma and Delta (for
 * limits across apps and other accounts' challenges), and Frozen (OTP suspended).
 */
export const OTP_FIXTURE = {
  accounts: [
    {
      ...account("Acme", OTP_KEYS.acme, { app_name: "Acme Rewards" }),
      api_key: "sk_test_acme_0000000000000000",
      numbers: [{ handle: "+14155550101", channels: ["imessage", "sms"], label: "main" }],
    },
    account("Beta", OTP_KEYS.beta),
    account("Gamma", OTP_KEYS.gamma),
    account("Delta", OTP_KEYS.delta),
    account("Frozen", OTP_KEYS.frozen, { otp_suspended: true }),
  ],
  otp: { number: OTP_NUMBER, whatsapp_number: OTP_WHATSAPP },
};

/** POST /v1/challenges that must be created (201); returns the create response. */
export async function createChallenge(t: TestSandbox, phone = PHONE, key?: string): Promise<any> {
  const res = await t.otp("POST", "/v1/challenges", { body: { phone }, key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** GET /v1/challenges/:id that must answer 200; returns the challenge. */
export async function challenge(t: TestSandbox, id: string, key?: string): Promise<any> {
  const res = await t.otp("GET", `/v1/challenges/${id}`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** The challenge's user texts the OTP number (control API); returns the text result. */
export async function textFor(
  t: TestSandbox,
  id: string,
  body: Record<string, unknown> = {},
  key?: string,
): Promise<any> {
  const res = await t.otp("POST", `/sandbox/v1/otp/challenges/${id}/texts`, { body, key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** A phone texts an OTP number (control API); returns the text result. */
export async function textFrom(
  t: TestSandbox,
  from: string,
  text: string,
  extra: Record<string, unknown> = {},
): Promise<any> {
  const res = await t.otp("POST", "/sandbox/v1/otp/texts", { body: { from, text, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** The virtual now, as an ISO timestamp. */
export const nowIso = (t: TestSandbox, plus = 0) => new Date(t.sandbox.ctx.clock.now() + plus).toISOString();
