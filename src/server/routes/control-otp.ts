import { listOtpTexts, otpFaults, setOtpFault, textChallenge, textOtpNumber } from "../../domain/otp/index.js";
import { ok, page, type Route } from "../route.js";

/** The OTP service's control API under /sandbox/v1 (docs/control-api.md, "OTP"): texts, threads, the outage. */
export const otpControlRoutes: Route[] = [
  {
    method: "POST",
    path: "/sandbox/v1/otp/texts",
    handler: async ({ ctx, account, json }) => ok(textOtpNumber(ctx, account.id, await json()), 201),
  },
  {
    method: "GET",
    path: "/sandbox/v1/otp/texts",
    handler({ ctx, account, query }) {
      const { data, hasMore } = listOtpTexts(ctx, account.id, Object.fromEntries(query));
      return page(data, hasMore);
    },
  },
  {
    method: "POST",
    path: "/sandbox/v1/otp/challenges/:id/texts",
    handler: async ({ ctx, account, params, json }) => ok(textChallenge(ctx, account.id, params.id ?? "", await json()), 201),
  },
  { method: "GET", path: "/sandbox/v1/otp/fault", handler: ({ ctx }) => ok(otpFaults(ctx)) },
  { method: "POST", path: "/sandbox/v1/otp/fault", handler: async ({ ctx, json }) => ok(setOtpFault(ctx, await json())) },
];
