import { afterEach, expect } from "vitest";
import type { TestSandbox } from "./sandbox.js";
import { startHandler, type HandlerFlaws, type TestHandler } from "./webhook-handlers.js";

/** The secret the handlers under check verify with. */
export const SECRET = "whsec_test_0123456789abcdef";

/** Every probe of the battery, in the order it is sent. */
export const PROBES = [
  "valid_event",
  "duplicate_event",
  "tampered_body",
  "wrong_secret",
  "stale_timestamp",
  "future_timestamp",
  "missing_signature",
  "missing_v1",
  "v1_not_hex",
  "read_before_delivered",
  "delivered_after_read",
  "unknown_field",
];

/** One probe's line of a check report. */
export interface ProbeResult {
  probe: string;
  status: number | null;
  ms: number;
  verdict: "pass" | "fail";
  why: string;
}
/** A check report, as POST /sandbox/v1/webhooks/check answers it. */
export interface Report {
  url: string;
  passed: boolean;
  probes: ProbeResult[];
}

/**
 * Starts a test handler with the flaws asked for; the handlers started in a test are closed after
 * it (the hook is registered in the calling file, at its top level).
 */
export function useCheckHandlers(): (flaws?: HandlerFlaws, secret?: string) => Promise<TestHandler> {
  const handlers: TestHandler[] = [];
  afterEach(async () => {
    await Promise.all(handlers.splice(0).map((handler) => handler.close()));
  });
  return async (flaws = {}, secret = SECRET) => {
    const handler = await startHandler(secret, flaws);
    handlers.push(handler);
    return handler;
  };
}

/** Checks the handler at `url` (200), whose report lists every probe in order. */
export async function check(t: TestSandbox, url: string, secret = SECRET): Promise<Report> {
  const res = await t.api("POST", "/sandbox/v1/webhooks/check", { body: { url, secret } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const report = res.body.data as Report;
  expect(report.probes.map((probe) => probe.probe)).toEqual(PROBES);
  return report;
}

/** The probes a report failed. */
export const failed = (report: Report) => report.probes.filter((p) => p.verdict === "fail").map((p) => p.probe);
/** A report's line for one probe. */
export const probe = (report: Report, name: string) => report.probes.find((p) => p.probe === name) as ProbeResult;
