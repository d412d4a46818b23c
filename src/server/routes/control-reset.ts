import { resetBody } from "../../contract/sandbox.js";
import { parseFixture } from "../../domain/sandbox/index.js";
import { parseInput } from "../../lib/validation.js";
import { ok, type Route } from "../route.js";

/** POST /sandbox/v1/reset: wipe every account's state and re-seed (SANDBOX.md section 6). */
export const resetRoutes: Route[] = [
  {
    method: "POST",
    path: "/sandbox/v1/reset",
    async handler({ control, json }) {
      const body = parseInput(resetBody, await json());
      const fixture = body?.fixture === undefined ? undefined : parseFixture(body.fixture, "fixture");
      const accounts = await control.reset(fixture);
      return ok({ accounts: accounts.map(({ generated: _generated, ...account }) => account) });
    },
  },
];
