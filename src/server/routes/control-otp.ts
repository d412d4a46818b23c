import {
  challengeTextBody,
  listOtpTextsQuery,
  otpFaultBody,
  otpFaults as otpFaultsSchema,
  otpText,
  otpTextBody,
  otpTextResult,
} from "../../contract/otp.js";
import { listOtpTexts, otpFaults, setOtpFault, textChallenge, textOtpNumber } from "../../domain/otp/index.js";
import { ok, page, type Route } from "../route.js";

const TAG = "Sandbox: OTP";
const theResult = {
  201: {
    description: "the text, the reply the user got, what the text did, and the challenge after it",
    schema: otpTextResult,
  },
};
const theFaults = { 200: { description: "the OTP host's faults", schema: otpFaultsSchema } };

/** The OTP service's control API under /sandbox/v1 (docs/control-api.md, "OTP"): texts, threads, the outage. */
export const controlOtpRoutes: Route[] = [
  {
    method: "POST",
    path: "/sandbox/v1/otp/texts",
    requiresBody: { example: '{ "from": "+14155550123", "text": "123456" }' },
    doc: {
      tag: TAG,
      summary: "A phone texts an OTP number",
      description:
        "The user's phone texts the OTP number (the WhatsApp one with `channel: whatsapp`). A bare six-digit code from a challenged phone verifies or counts as wrong; other words, group chats and phones no app challenged are ignored with no reply.",
      body: otpTextBody,
      responses: theResult,
    },
    handler: ({ ctx, account, body }) => ok(textOtpNumber(ctx, account.id, body()), 201),
  },
  {
    method: "GET",
    path: "/sandbox/v1/otp/texts",
    doc: {
      tag: TAG,
      summary: "List the OTP numbers' texts",
      description:
        "Texts in and replies out, newest first, in the threads of phones this account created challenges for; `phone` keeps one phone's.",
      query: listOtpTextsQuery,
      responses: { 200: { description: "a page of texts", schema: otpText, list: true } },
    },
    handler({ ctx, account, query }) {
      const { data, hasMore } = listOtpTexts(ctx, account.id, Object.fromEntries(query));
      return page(data, hasMore);
    },
  },
  {
    method: "POST",
    path: "/sandbox/v1/otp/challenges/:id/texts",
    doc: {
      tag: TAG,
      summary: "The challenge's user texts",
      description:
        "With no body, the right code from the challenge's phone; or `code`, `wrong` or `text` (one of them), from another phone, over a channel, in a group chat.",
      params: { id: "one of this account's challenges" },
      body: challengeTextBody,
      bodyOptional: true,
      responses: theResult,
    },
    handler: async ({ ctx, account, params, json }) =>
      ok(textChallenge(ctx, account.id, params.id ?? "", await json()), 201),
  },
  {
    method: "GET",
    path: "/sandbox/v1/otp/fault",
    doc: { tag: TAG, summary: "The OTP host's faults", responses: theFaults },
    handler: ({ ctx }) => ok(otpFaults(ctx)),
  },
  {
    method: "POST",
    path: "/sandbox/v1/otp/fault",
    requiresBody: { example: '{ "fault": "unavailable" } or { "fault": "unavailable", "off": true }' },
    doc: {
      tag: TAG,
      summary: "Switch the simulated outage",
      description:
        "`unavailable`: every /v1 path of the OTP host answers 503 `unavailable` until `off: true` (or a reset); /healthz and the control API stay up. The switch is the host's, for every account.",
      body: otpFaultBody,
      responses: theFaults,
    },
    handler: ({ ctx, body }) => ok(setOtpFault(ctx, body())),
  },
];
