import { settleBody, settleResult, type SettleResult } from "../../contract/control.js";
import { isoTime } from "../../lib/clock.js";
import { parseDuration } from "../../lib/duration.js";
import { parseInput } from "../../lib/validation.js";
import { ok, type Route } from "../route.js";

/** POST /sandbox/v1/settle: wait until nothing due is in flight (docs/control-api.md, "Settle"). */
export const controlSettleRoutes: Route[] = [
  {
    method: "POST",
    path: "/sandbox/v1/settle",
    doc: {
      tag: "Sandbox: clock",
      summary: "Wait until nothing due is in flight",
      description:
        "Returns once every job due at or before the clock's now has run, and every webhook delivery of an event emitted before the call whose first attempt is due has finished that attempt (acknowledged, failed, timed out or dropped), on either clock. It never moves a manual clock. Call it after a control action (simulate, trigger, …) and before looking at your app: no delivery then arrives late.",
      body: settleBody,
      bodyOptional: true,
      responses: { 200: { description: "everything due has run", schema: settleResult } },
      errorCodes: {
        408: {
          settle_timeout:
            'the timeout (real time) passed first; the message names each delivery still in flight by its id and endpoint URL (ten, then "and N more")',
        },
      },
    },
    async handler({ control, json }) {
      const body = parseInput(settleBody, await json());
      const timeoutMs = body?.timeout === undefined ? undefined : parseDuration(body.timeout, "timeout");
      const settled = await control.settle(timeoutMs);
      const result: SettleResult = { now: isoTime(settled.now), jobs_run: settled.jobsRun, attempts: settled.attempts };
      return ok(result);
    },
  },
];
