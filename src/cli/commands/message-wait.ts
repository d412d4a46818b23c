import type { MsgctlClient } from "../../client/client.js";
import type { MessageResource, MessageStatus } from "../../contract/index.js";
import type { ConnectionFlags } from "../connection.js";
import { connect } from "../connection.js";
import { interruptible } from "../interrupt.js";
import type { Output } from "../output.js";
import { startProgress } from "../progress.js";
import { messageReached } from "../../client/status-reached.js";
import { messageDetails } from "./message-format.js";
import { timeoutMs, WaitTimeout } from "./wait.js";
import { DEFAULT_WAIT_TIMEOUT } from "../defaults.js";

const POLL_MS = 100;

/** True when the sandbox's clock is manual (false when it cannot be asked: the wait goes on as usual). */
async function onManualClock(client: MsgctlClient): Promise<boolean> {
  try {
    return (await client.sandbox.clock()).mode === "manual";
  } catch {
    return false;
  }
}

/**
 * Polls a message until it reaches `target` (a spinner or progress lines for people). Resolves
 * with the message; throws WaitTimeout (exit 1) at the timeout, saying what was seen, or at once
 * when the status can no longer be reached. SIGINT/SIGTERM end it with 130/143. On a manual clock
 * a message moves only when something advances the clock, so people are told so at the first
 * poll, not at the timeout (the wait goes on: another shell or a test may advance it).
 */
export async function waitForStatus(
  client: MsgctlClient,
  id: string,
  target: MessageStatus,
  limitMs: number,
  out: Output,
  label: string,
): Promise<MessageResource> {
  const deadline = Date.now() + limitMs;
  const progress = startProgress(out, `Waiting for ${id} to be ${target}`);
  let first = true;
  return interruptible(async () => {
    try {
      for (;;) {
        const message = await client.messages.get(id);
        const verdict = messageReached(message.status, target);
        if (verdict === true) {
          progress.succeed(`${id} is ${message.status}`);
          return message;
        }
        if (verdict === "never") {
          throw new WaitTimeout(
            `Message ${id} is ${message.status}${message.error ? ` (${message.error})` : ""}: it will not be ${target}`,
            message,
          );
        }
        if (first) {
          first = false;
          if (!out.json && (await onManualClock(client)))
            progress.note(
              `The sandbox's clock is manual: ${id} stays ${message.status} until it is advanced (\`msgctl clock advance 1s\` in another shell); waiting up to ${label}.`,
            );
        }
        progress.update(`Waiting for ${id} to be ${target} (now ${message.status})`);
        if (Date.now() >= deadline) {
          throw new WaitTimeout(
            `Message ${id} was still ${message.status} after ${label} (wanted ${target}; on a manual clock, run \`msgctl clock advance\`)`,
            message,
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

/** `msgctl wait message ID --status S [--timeout 10s]`. */
export async function waitMessage(
  id: string,
  options: ConnectionFlags & { status: MessageStatus; timeout?: string },
  out: Output,
): Promise<MessageResource> {
  const limit = timeoutMs(options.timeout);
  const message = await waitForStatus(
    connect(options),
    id,
    options.status,
    limit,
    out,
    options.timeout ?? DEFAULT_WAIT_TIMEOUT,
  );
  out.result(message, (m) => messageDetails(out.color, m));
  return message;
}
