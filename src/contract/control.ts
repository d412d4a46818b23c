import { z } from "zod";
import { timestamp } from "./common.js";
import { numberResource } from "./numbers.js";

/** The sandbox clock: its time and whether it moves by hand (`manual`) or with the wall clock (`real`). */
export const clockView = z.object({ now: timestamp, mode: z.enum(["real", "manual"]) }).meta({ id: "Clock" });
/** The sandbox clock. */
export type ClockView = z.output<typeof clockView>;

/**
 * POST /sandbox/v1/clock/advance: a duration (`"1h30m"`) or milliseconds, exactly one. One object
 * rather than a union of two, so that a wrong field is named in the 400.
 */
export const advanceBody = z
  .strictObject({
    duration: z.string().min(1).max(64).optional().meta({ example: "1h30m" }),
    ms: z.number().int().min(0).optional().meta({ description: "the clock stays at or before the end of year 9999" }),
  })
  .superRefine((body, check) => {
    const given = (body.duration === undefined ? 0 : 1) + (body.ms === undefined ? 0 : 1);
    if (given === 1) return;
    if (given === 0)
      check.addIssue({
        code: "custom",
        message: 'duration or ms is required: send { "duration": "1h" } or { "ms": 3600000 }',
      });
    else check.addIssue({ code: "custom", path: ["ms"], message: "give duration or ms, not both" });
  });

/** An account as the ready line and reset show it; a key is null when it was shown at an earlier start. */
export const accountView = z
  .object({
    name: z.string(),
    api_key: z.string().nullable(),
    otp_api_key: z.string().nullable(),
    numbers: z.array(numberResource),
  })
  .meta({ id: "Account" });
/** An account as the ready line and reset show it. */
export type AccountView = z.output<typeof accountView>;

/** GET /healthz. */
export const healthResult = z.object({ status: z.literal("ok") });

/** POST /sandbox/v1/reset: optionally a new fixture to seed from. */
export const resetBody = z.strictObject({ fixture: z.unknown().optional() }).optional();

/** The answer of a reset: the accounts re-seeded, with their keys. */
export const resetResult = z.object({ accounts: z.array(accountView) });

/** POST /sandbox/v1/settle: how long to wait at most (real time; default 10s). The body may be left out. */
export const settleBody = z
  .strictObject({
    timeout: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .meta({ description: "real time, at most 5m; default 10s", example: "10s" }),
  })
  .optional();

/** What a settle answers (docs/control-api.md, "Settle"). */
export const settleResult = z
  .object({
    now: timestamp.meta({ description: "the clock's time: every job due at or before it has run" }),
    jobs_run: z.number().int().min(0).meta({
      description:
        "the jobs it waited for: due and not finished when it was called, or scheduled due at once by those (first attempts included)",
    }),
    attempts: z.number().int().min(0).meta({ description: "the first webhook delivery attempts it waited for" }),
  })
  .meta({ id: "Settled" });
/** What a settle answers. */
export type SettleResult = z.output<typeof settleResult>;
