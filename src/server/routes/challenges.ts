import { challengeResource, createChallengeBody, createdChallenge } from "../../contract/otp.js";
import { consumeChallenge, createChallenge, getChallenge } from "../../domain/otp/index.js";
import { ok, type Route } from "../route.js";

const TAG = "Challenges";
const id = { id: "the challenge's id (`chal_…`)" };
const theChallenge = { 200: { description: "the challenge", schema: challengeResource } };
// Every /v1 path answers 503 during the simulated outage and 403 for a suspended account.
const SERVICE_ERRORS = [403, 503];

/** The OTP service's challenges (spec 4.6), on the OTP host. */
export const challengeRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/challenges",
    requiresBody: { example: '{ "phone": "+14155550123" }' },
    doc: {
      tag: TAG,
      summary: "Create a challenge",
      description:
        "For a phone in E.164 or a US national format. The answer is the only one that carries the six-digit `code`; the challenge is `pending` and expires 10 minutes after creation. " +
        "400 `invalid_phone` for a string that is not a valid number (`invalid_request` for a missing or non-string `phone`); 429 `rate_limited` past 3 a minute per phone from one account, 10 per phone across all apps, or 120 per account, with `Retry-After`.",
      body: createChallengeBody,
      responses: { 201: { description: "the create response", schema: createdChallenge } },
      errors: [...SERVICE_ERRORS, 429],
    },
    handler: ({ ctx, account, body }) => ok(createChallenge(ctx, account, body()), 201),
  },
  {
    method: "GET",
    path: "/v1/challenges/:id",
    doc: {
      tag: TAG,
      summary: "Get a challenge",
      description: "Poll every couple of seconds until `verified`. Another account's challenge is 404 `not_found`.",
      params: id,
      responses: theChallenge,
      errors: SERVICE_ERRORS,
    },
    handler: ({ ctx, account, params }) => ok(getChallenge(ctx, account, params.id ?? "")),
  },
  {
    method: "POST",
    path: "/v1/challenges/:id/consume",
    doc: {
      tag: TAG,
      summary: "Consume a verified challenge",
      description:
        "verified → consumed, exactly once; sign-in is complete here, not at `verified`. 409 `not_verified` (still pending), 409 `already_consumed`, 410 `expired`. Any body is ignored.",
      params: id,
      responses: { 200: { description: "the challenge, consumed, with `consumed_at`", schema: challengeResource } },
      errors: [...SERVICE_ERRORS, 409, 410],
    },
    // Any body is ignored (docs/spec-decisions.md): clients that always send `{}` work.
    handler: ({ ctx, account, params }) => ok(consumeChallenge(ctx, account, params.id ?? "")),
  },
];
