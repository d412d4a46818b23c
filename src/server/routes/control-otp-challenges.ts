import { listOtpChallengesQuery, otpChallengeView } from "../../contract/otp.js";
import { listChallenges } from "../../domain/otp/index.js";
import { page, type Route } from "../route.js";

/** The account's challenges with their codes, under /sandbox/v1 on both hosts (the inspector's OTP view). */
export const controlOtpChallengeRoutes: Route[] = [
  {
    method: "GET",
    path: "/sandbox/v1/otp/challenges",
    doc: {
      tag: "Sandbox: OTP",
      summary: "List the account's challenges with their codes",
      description:
        "Newest first, each with its status now, its code and its wrong texts; `limit` of the newest (1-100, default 50).",
      query: listOtpChallengesQuery,
      responses: { 200: { description: "the challenges", schema: otpChallengeView, list: true } },
    },
    handler({ ctx, account, query }) {
      const { data, hasMore } = listChallenges(ctx, account.id, Object.fromEntries(query));
      return page(data, hasMore);
    },
  },
];
