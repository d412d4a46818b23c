import type { MsgctlClient } from "../../client/client.js";
import type { ChallengeResource, ChallengeStatus } from "../../contract/index.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { interruptible } from "../interrupt.js";
import type { Output } from "../output.js";
import { startProgress } from "../progress.js";
import { challengeReached } from "../../client/status-reached.js";
import { challengeDetails } from "./otp-format.js";
import { timeoutMs, WaitTimeout } from "./wait.js";
import { DEFAULT_WAIT_TIMEOUT } from "../defaults.js";

const POLL_MS = 100;

/** Whether a challenge at `current` has reached `target`, or never can. */
export const otpReached = challengeReached;

/**
 * Polls a challenge until it reaches `target` (a spinner or progress lines for people);
 * WaitTimeout (exit 1) at the timeout or when it can no longer get there; SIGINT/SIGTERM end it
 * with 130/143.
 */
export async function waitForChallenge(
  client: MsgctlClient,
  id: string,
  target: ChallengeStatus,
  limitMs: number,
  out: Output,
  label: string,
): Promise<ChallengeResource> {
  const deadline = Date.now() + limitMs;
  const progress = startProgress(out, `Waiting for ${id} to be ${target}`);
  return interruptible(async () => {
    try {
      for (;;) {
        const challenge = await client.otp.get(id);
        const verdict = otpReached(challenge.status, target);
        if (verdict === true) {
          progress.succeed(`${id} is ${challenge.status}`);
          return challenge;
        }
        if (verdict === "never")
          throw new WaitTimeout(`Challenge ${id} is ${challenge.status}: it will not be ${target}`, challenge);
        progress.update(`Waiting for ${id} to be ${target} (now ${challenge.status})`);
        if (Date.now() >= deadline) {
          throw new WaitTimeout(
            `Challenge ${id} was still ${challenge.status} after ${label} (wanted ${target}; on a manual clock, run \`msgctl clock advance\`)`,
            challenge,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(0, deadline - Date.now()))));
      }
    } catch (error) {
      progress.fail();
      throw error;
    }
  }, progress.stop);
}

/** `msgctl wait otp ID --status S [--timeout 10s]`. */
export async function waitOtp(
  id: string,
  options: ConnectionFlags & { status: ChallengeStatus; timeout?: string },
  out: Output,
): Promise<ChallengeResource> {
  const limit = timeoutMs(options.timeout);
  const challenge = await waitForChallenge(
    connect(options, "otp"),
    id,
    options.status,
    limit,
    out,
    options.timeout ?? DEFAULT_WAIT_TIMEOUT,
  );
  out.result(challenge, (c) => challengeDetails(out.color, c));
  return challenge;
}
