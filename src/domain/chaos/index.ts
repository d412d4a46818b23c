/**
 * Seeded chaos (docs/chaos.md): the profiles and their rates, the decisions drawn from the seed
 * and the identity of the work they concern, the chaos in force, and its log. Webhooks consult it
 * at fan-out (copies, swaps, extra waits), messages at a first send attempt (a number offline, a
 * transient error) and at a receipt (lost), each in the transaction of the work.
 */
import type { DomainModule } from "../core/index.js";
import { OUTAGE_END_JOB, runOutageEnd } from "./messages.js";

export { decideDelivery, decideReceipt, decideSend, type DeliveryDecision } from "./decisions.js";
export { listChaosDecisions, recordChaos } from "./log.js";
export { chaosAtSend, receiptLost } from "./messages.js";
export { endpointNumberOf, numberEvent } from "./numbering.js";
export { CHAOS_PROFILES, SWAP_WAIT_MS } from "./profiles.js";
export {
  activeChaos,
  chaosInput,
  chaosStatus,
  switchChaosOff,
  switchChaosOn,
  type ActiveChaos,
} from "./state.js";

/** What chaos plugs in: the end of the outages it starts. */
export const chaosModule: DomainModule = {
  name: "chaos",
  jobs: { [OUTAGE_END_JOB]: runOutageEnd },
};
