import { listAccountNumbers } from "../../domain/world/index.js";
import { numberResource } from "../../contract/numbers.js";
import { page, type Route } from "../route.js";

/** GET /v1/numbers (spec 4.1). */
export const numberRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/numbers",
    doc: {
      tag: "Numbers",
      summary: "List the account's numbers",
      responses: {
        200: { description: "the account's numbers, in fixture order", schema: numberResource, list: true },
      },
    },
    handler: ({ ctx, account }) => page(listAccountNumbers(ctx, account.id), false),
  },
];
