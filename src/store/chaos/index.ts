/** Seeded chaos's rows: the chaos in force, the numbering of the work, held deliveries, the log. */
export { readChaosState, writeChaosState } from "./state.js";
export { endpointNumber, findMessageNumber, nextNumber, saveMessageNumber } from "./numbering.js";
export { insertChaosLog, listChaosLog, type ChaosLogRow } from "./log.js";
export {
  deleteHold,
  deleteHoldsOf,
  holdBefore,
  insertHold,
  lastHold,
  listHeldEndpoints,
  listHoldsAfter,
  markHoldPaired,
  waitingHold,
  type HoldRow,
} from "./holds.js";
export type { ChaosTables } from "./tables.js";
