/** The simulated world's rows: the accounts' numbers, the contacts' profiles, the faults per number. */
export { findNumber, insertNumber, listNumbers } from "./numbers.js";
export { findContact, listContacts, upsertContact } from "./contacts.js";
export { findNumberFaults, saveNumberFaults, type NumberFaultsRow } from "./number-faults.js";
export type { ContactsTable, NumbersTable, WorldTables } from "./tables.js";
