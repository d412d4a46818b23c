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

/**
 * Polls a message until it reaches `target` (a spinner or progress lines for people). Resolves
 * with the message; throws WaitTimeout (exit 1) at the timeout, saying what was seen, or at once
 * when the status can no longer be reached. SIGINT/SIGTERM end it with 130/143.
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
