/**
 * The simulated world's state: contacts and what decides routing to them,
 * the account's numbers, and the faults switched on per number with the WhatsApp cool-down.
 */
export {
  contactProfile,
  GROUP_NAMING_FAILS,
  profileOf,
  setContactProfile,
  type ContactProfile,
} from "./contacts.js";
export { getContact, listContacts, setContact } from "./contact-views.js";
export {
  listAccountNumbers,
  numberByHandle,
  type AccountNumber,
  type Channel,
  type NumberResource,
} from "./numbers.js";
export { meetFaults, numberStatus, type FaultOutcome, type RetryableFailure } from "./number-faults.js";
export { getNumberFaults, setNumberFault } from "./fault-switches.js";
export { endOutage, startOutage } from "./outages.js";
export { cooldownMs } from "./whatsapp-rate-limit.js";
