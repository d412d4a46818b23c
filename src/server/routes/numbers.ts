import { listAccountNumbers } from "../../domain/world/index.js";
import { page, type Route } from "../route.js";

/** GET /v1/numbers (spec 4.1). */
export const numberRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/numbers",
    handler: ({ ctx, account }) => page(listAccountNumbers(ctx, account.id), false),
  },
];
