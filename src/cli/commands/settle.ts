import type { SettleResult } from "../../contract/index.js";
import { parseDuration } from "../../lib/duration.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { DEFAULT_SETTLE_TIMEOUT } from "../defaults.js";
import { interruptible } from "../interrupt.js";
import { details, type Output } from "../output.js";
import { startProgress } from "../progress.js";
import { UsageError } from "../usage-error.js";

/** Options of `msgctl settle`. */
export interface SettleOptions {
  /** Real time to wait at most (default 10s, at most 5m). */
  timeout?: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * `msgctl settle [--timeout 10s]`: returns once every job due now has run and every webhook
 * delivery due has finished its first attempt, on either clock, without moving it; `--json`
 * prints `{ now, jobs_run, attempts }`. When the timeout passes first the sandbox answers 408
 * `settle_timeout` naming the deliveries still in flight: exit 1 with that message.
 */
export async function settle(options: ConnectionFlags & SettleOptions, out: Output): Promise<SettleResult> {
  const timeout = options.timeout ?? DEFAULT_SETTLE_TIMEOUT;
  try {
    parseDuration(timeout, "--timeout");
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const client = connect(options);
  const progress = startProgress(out, "Settling: waiting for the work due now and its webhook deliveries");
  return interruptible(async () => {
    try {
      // Sent as given: the sandbox checks its bounds (at most 5m).
      const settled = await client.sandbox.settle({ timeout });
      progress.succeed(
        `Settled: ${plural(settled.jobs_run, "job")} run, ${plural(settled.attempts, "first delivery attempt")} finished`,
      );
      out.result(settled, (s) =>
        details(out.color, [
          ["now", s.now],
          ["jobs_run", s.jobs_run],
          ["attempts", s.attempts],
        ]),
      );
      return settled;
    } catch (error) {
      progress.fail();
      throw error;
    }
  }, progress.stop);
}
