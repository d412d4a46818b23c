import { consumeChallenge, createChallenge, getChallenge } from "../../domain/otp/index.js";
import { ok, type Route } from "../route.js";

/** The OTP service's challenges (spec 4.6), on the OTP host. */
export const challengeRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/challenges",
    handler: async ({ ctx, account, json }) => ok(createChallenge(ctx, account, await json()), 201),
  },
  { method: "GET", path: "/v1/challenges/:id", handler: ({ ctx, account, params }) => ok(getChallenge(ctx, account, params.id ?? "")) },
  {
    method: "POST",
    path: "/v1/challenges/:id/consume",
    // Any body is ignored (docs/spec-decisions.md): clients that always send `{}` work.
    handler: ({ ctx, account, params }) => ok(consumeChallenge(ctx, account, params.id ?? "")),
  },
];
