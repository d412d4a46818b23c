import { advanceBody, type ClockView } from "../../contract/sandbox.js";
import { invalidRequest } from "../../lib/app-error.js";
import { isoTime } from "../../lib/clock.js";
import { parseDuration } from "../../lib/duration.js";
import { parseInput } from "../../lib/validation.js";
import { ok, type Route } from "../route.js";

const clockView = (clock: { now: number; mode: ClockView["mode"] }): ClockView => ({ now: isoTime(clock.now), mode: clock.mode });

/** The clock under /sandbox/v1 (SANDBOX.md section 4). */
export const clockRoutes: Route[] = [
  { method: "GET", path: "/sandbox/v1/clock", handler: ({ control }) => ok(clockView(control.clock())) },
  {
    method: "POST",
    path: "/sandbox/v1/clock/advance",
    async handler({ control, json }) {
      const body = await json();
      if (body === undefined) throw invalidRequest("body: send { \"duration\": \"1h\" } or { \"ms\": 3600000 }");
      const input = parseInput(advanceBody, body);
      const ms = "duration" in input ? parseDuration(input.duration) : input.ms;
      return ok(clockView(await control.advance(ms)));
    },
  },
];
