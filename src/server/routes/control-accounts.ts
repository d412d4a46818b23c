import { createAccountOnDemand, deleteAccountOnDemand } from "../../domain/accounts/index.js";
import { createAccountBody, deletedAccount } from "../../contract/accounts.js";
import { accountView } from "../../contract/control.js";
import { ok, page, type Route } from "../route.js";

const TAG = "Sandbox: accounts";

/** Accounts on demand under /sandbox/v1 (docs/control-api.md, "Accounts"). */
export const controlAccountRoutes: Route[] = [
  {
    method: "POST",
    path: "/sandbox/v1/accounts",
    doc: {
      tag: TAG,
      summary: "Create an account on demand",
      description:
        "Fixture-shaped, every field optional; numbers from the documented pool. Its keys are shown only in this answer.",
      body: createAccountBody,
      bodyOptional: true,
      responses: { 201: { description: "the account with both keys", schema: accountView } },
    },
    async handler({ ctx, json }) {
      const { generated: _generated, ...account } = createAccountOnDemand(ctx, await json());
      return ok(account, 201);
    },
  },
  {
    method: "GET",
    path: "/sandbox/v1/accounts",
    doc: {
      tag: TAG,
      summary: "List accounts",
      responses: {
        200: {
          description: "every account; keys only where this sandbox may still show them",
          schema: accountView,
          list: true,
        },
      },
    },
    handler: ({ control }) => page(control.accounts(), false),
  },
  {
    method: "DELETE",
    path: "/sandbox/v1/accounts/:name",
    doc: {
      tag: TAG,
      summary: "Delete an account and all its data",
      params: { name: "the account's name" },
      responses: { 200: { description: "deleted", schema: deletedAccount } },
      errors: [409],
    },
    handler: ({ ctx, params }) => ok(deleteAccountOnDemand(ctx, params.name ?? "")),
  },
];
