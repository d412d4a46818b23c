import { pickInRange, seededDraw } from "../../lib/seeded-draw.js";
import { CHAOS_SPANS } from "./profiles.js";
import type { ActiveChaos } from "./state.js";

/**
 * Every decision of seeded chaos, as pure functions of the chaos in force and the identity of the
 * work it concerns (docs/chaos.md, "Determinism"): an event by its number in its account and the
 * endpoint by its number among the account's endpoints; a message by its number in its account.
 * Ids, URLs and times differ between runs and are never part of an identity; each decision and
 * each amount has an identity of its own, so no draw depends on another having been made.
 */

/** What chaos does to one event's delivery to one endpoint. */
export interface DeliveryDecision {
  /** A copy of the event goes to the endpoint this long (clock ms) after the original. */
  duplicateAfterMs: number | undefined;
  /** The first attempt waits this much longer (clock ms). */
  extraWaitMs: number | undefined;
  /** The first attempt swaps places with the next first attempt to the endpoint. */
  swap: boolean;
}

/** What chaos does to a message's first send attempt. */
export interface SendDecision {
  /** Before the send its number goes offline for this long (clock ms). */
  offlineForMs: number | undefined;
  /** The send meets a transient error. */
  sendError: boolean;
}

const draw = (chaos: ActiveChaos, identity: string) => seededDraw(chaos.key, identity);
const hit = (chaos: ActiveChaos, identity: string, rate: number) => draw(chaos, identity) < rate;
const span = (chaos: ActiveChaos, identity: string, [from, to]: readonly [number, number]) =>
  pickInRange(draw(chaos, identity), from, to);

/** The decisions about the delivery of the account's event number `event` to its endpoint number `endpoint`. */
export function decideDelivery(chaos: ActiveChaos, event: number, endpoint: number): DeliveryDecision {
  const id = `e${event}:w${endpoint}`;
  const { rates } = chaos;
  return {
    duplicateAfterMs: hit(chaos, `duplicate:${id}`, rates.duplicate)
      ? span(chaos, `duplicate.after:${id}`, CHAOS_SPANS.duplicateAfterMs)
      : undefined,
    extraWaitMs: hit(chaos, `delay:${id}`, rates.delayed)
      ? span(chaos, `delay.by:${id}`, CHAOS_SPANS.extraWaitMs)
      : undefined,
    swap: hit(chaos, `reorder:${id}`, rates.reordered),
  };
}

/**
 * The decisions about the first send attempt of the account's message number `message` in its
 * `generation` (0 when accepted; a retry after failing, and a `simulate` step, move it on): a
 * message retried is decided on afresh.
 */
export function decideSend(chaos: ActiveChaos, message: number, generation: number): SendDecision {
  const id = `m${message}:g${generation}`;
  const { rates } = chaos;
  return {
    offlineForMs: hit(chaos, `offline:${id}`, rates.number_offline)
      ? span(chaos, `offline.for:${id}`, CHAOS_SPANS.offlineForMs)
      : undefined,
    sendError: hit(chaos, `send-error:${id}`, rates.send_error),
  };
}

/** Whether the `delivered` or `read` receipt of the account's message number `message` (from one group member) is lost. */
export function decideReceipt(
  chaos: ActiveChaos,
  message: number,
  receipt: "delivered" | "read",
  member?: string,
): boolean {
  const id = `m${message}${member === undefined ? "" : `:${member}`}`;
  return hit(chaos, `receipt.${receipt}:${id}`, chaos.rates.receipt_lost);
}
