import { createAccountOnDemand, deleteAccountOnDemand } from "../../domain/accounts/index.js";
import { ok, page, type Route } from "../route.js";

/** Accounts on demand under /sandbox/v1 (docs/control-api.md, "Accounts"). */
export const accountRoutes: Route[] = [
  {
    method: "POST",
    path: "/sandbox/v1/accounts",
    async handler({ ctx, json }) {
      const { generated: _generated, ...account } = createAccountOnDemand(ctx, await json());
      return ok(account, 201);
    },
  },
  { method: "GET", path: "/sandbox/v1/accounts", handler: ({ control }) => page(control.accounts(), false) },
  {
    method: "DELETE",
    path: "/sandbox/v1/accounts/:name",
    handler: ({ ctx, params }) => ok(deleteAccountOnDemand(ctx, params.name ?? "")),
  },
];
