import type { ChallengeStatus, MessageStatus } from "../contract/statuses.js";

const MESSAGE_RANK: Partial<Record<MessageStatus, number>> = { queued: 0, sent: 1, delivered: 2, read: 3 };
const CHALLENGE_RANK: Partial<Record<ChallengeStatus, number>> = { pending: 0, verified: 1, consumed: 2 };

/**
 * Whether a message at `current` has reached `target` (at it or past it: `read` satisfies
 * `delivered`), or never can: a failed message is never delivered; an unsent one was sent but is
 * never delivered or read from then on. What `wait message` and a scenario's `expect` wait for.
 */
export function messageReached(current: MessageStatus, target: MessageStatus): boolean | "never" {
  if (current === target) return true;
  const want = MESSAGE_RANK[target];
  const have = MESSAGE_RANK[current];
  if (want !== undefined && have !== undefined) return have >= want;
  if (current === "unsent") return target === "queued" || target === "sent" ? true : "never";
  if (current === "failed") return "never";
  return false;
}

/**
 * Whether a challenge at `current` has reached `target` (at it or past it: `consumed` satisfies
 * `verified`), or never can: an expired challenge is never verified, and a consumed one never expires.
 */
export function challengeReached(current: ChallengeStatus, target: ChallengeStatus): boolean | "never" {
  if (current === target) return true;
  if (current === "expired") return "never";
  if (target === "expired") return current === "consumed" ? "never" : false;
  return (CHALLENGE_RANK[current] ?? 0) >= (CHALLENGE_RANK[target] ?? 0);
}
