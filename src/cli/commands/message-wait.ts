import type { MsgctlClient } from "../../client/client.js";
import type { MessageResource, MessageStatus } from "../../contract/index.js";
import type { ConnectionFlags } from "../connection.js";
import { connect } from "../connection.js";
import { interruptible } from "../interrupt.js";
import type { Output } from "../output.js";
import { startProgress } from "../progress.js";
import { messageDetails } from "./message-format.js";
import { timeoutMs, WaitTimeout } from "./wait.js";
import { DEFAULT_WAIT_TIMEOUT } from "../defaults.js";

const RANK: Partial<Record<MessageStatus, number>> = { queued: 0, sent: 1, delivered: 2, read: 3 };
const POLL_MS = 100;

/**
 * Whether a message at `current` has reached `target` (SANDBOX.md section 5: at it or past it,
 * `read` satisfies `delivered`), or never can: a failed message is never delivered; an unsent one
 * was sent but is never delivered or read from then on.
 */
export function reached(current: MessageStatus, target: MessageStatus): boolean | "never" {
  if (current === target) return true;
  const want = RANK[target];
  const have = RANK[current];
  if (want !== undefined && have !== undefined) return have >= want;
  if (current === "unsent") return target === "queued" || target === "sent" ? true : "never";
  if (current === "failed") return "never";
  return false;
}

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
        const verdict = reached(message.status, target);
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
