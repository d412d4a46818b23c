import { resetBody, resetResult } from "../../contract/control.js";
import { parseFixture } from "../../domain/control/index.js";
import { parseInput } from "../../lib/validation.js";
import { ok, type Route } from "../route.js";

/** POST /sandbox/v1/reset: wipe every account's state and re-seed. */
export const controlResetRoutes: Route[] = [
  {
    method: "POST",
    path: "/sandbox/v1/reset",
    doc: {
      tag: "Sandbox",
      summary: "Wipe all state and re-seed",
      description:
        "Every account's state goes; the fixture (the one the sandbox started with, or the one sent) seeds it again. The clock keeps its time.",
      body: resetBody,
      bodyOptional: true,
      responses: { 200: { description: "the accounts re-seeded, with their keys", schema: resetResult } },
    },
    async handler({ control, json }) {
      const body = parseInput(resetBody, await json());
      const fixture = body?.fixture === undefined ? undefined : parseFixture(body.fixture, "fixture");
      const accounts = await control.reset(fixture);
      return ok({ accounts: accounts.map(({ generated: _generated, ...account }) => account) });
    },
  },
];
