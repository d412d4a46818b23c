import { advanceBody, clockView as clockSchema, type ClockView } from "../../contract/control.js";
import { isoTime } from "../../lib/clock.js";
import { parseDuration } from "../../lib/duration.js";
import { parseInput } from "../../lib/validation.js";
import { ok, type Route } from "../route.js";

const clockView = (clock: { now: number; mode: ClockView["mode"] }): ClockView => ({
  now: isoTime(clock.now),
  mode: clock.mode,
});

/** The clock under /sandbox/v1. */
export const controlClockRoutes: Route[] = [
  {
    method: "GET",
    path: "/sandbox/v1/clock",
    doc: {
      tag: "Sandbox: clock",
      summary: "The sandbox clock",
      responses: { 200: { description: "its time and mode", schema: clockSchema } },
    },
    handler: ({ control }) => ok(clockView(control.clock())),
  },
  {
    method: "POST",
    path: "/sandbox/v1/clock/advance",
    requiresBody: { example: '{ "duration": "1h" } or { "ms": 3600000 }' },
    doc: {
      tag: "Sandbox: clock",
      summary: "Advance a manual clock",
      description:
        "Runs every job that falls due, in due order, each at its due time, up to and including the target; returns once that work (webhook attempts included) is done.",
      body: advanceBody,
      responses: { 200: { description: "the clock after the advance", schema: clockSchema } },
      errors: [409],
    },
    async handler({ control, body }) {
      const input = parseInput(advanceBody, body());
      // The schema lets exactly one of the two through.
      const ms = input.duration === undefined ? (input.ms as number) : parseDuration(input.duration, "duration");
      return ok(clockView(await control.advance(ms)));
    },
  },
];
