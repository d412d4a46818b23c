import { contactChanges, type ContactView } from "../../contract/world.js";
import { invalidRequest } from "../../lib/app-error.js";
import { requireHandle } from "../../lib/handle-input.js";
import { parseInput } from "../../lib/validation.js";
import type { DomainContext } from "../core/index.js";
import {
  contactProfile,
  listContactProfiles,
  MAGIC_NUMBERS,
  setContactProfile,
  type ContactProfile,
} from "./contacts.js";

export type { ContactView };

const withDescription = (profile: ContactProfile): ContactView => {
  const magic = MAGIC_NUMBERS[profile.handle];
  return profile.source === "magic" && magic ? { ...profile, description: magic.description } : profile;
};

/** `contacts list`: the contacts on record, then the magic numbers not overridden by a record. */
export function listContacts(ctx: DomainContext): ContactView[] {
  const recorded = listContactProfiles(ctx);
  const onRecord = new Set(recorded.map((contact) => contact.handle));
  const magic = Object.keys(MAGIC_NUMBERS)
    .filter((handle) => !onRecord.has(handle))
    .map((handle) => withDescription(contactProfile(ctx, handle)));
  return [...recorded, ...magic];
}

/** The profile routing uses for a handle (on record, magic, or the default). */
export function getContact(ctx: DomainContext, input: string): ContactView {
  return withDescription(contactProfile(ctx, requireHandle(input, "handle")));
}

/**
 * `contacts set H [...]`: records (part of) a contact's profile, starting from what routing uses
 * today. As in fixtures, switching to Android turns iMessage off unless `imessage` is given too.
 */
export function setContact(ctx: DomainContext, input: string, body: unknown): ContactView {
  const handle = requireHandle(input, "handle");
  const traits = parseInput(contactChanges, body ?? {});
  const changes = Object.fromEntries(Object.entries(traits).filter(([, value]) => value !== undefined)) as Partial<
    typeof traits
  >;
  // Nothing to change: nothing is written, and the contact does not become one on record.
  if (Object.keys(changes).length === 0) return getContact(ctx, handle);
  if (changes.platform === "android" && changes.imessage === undefined) changes.imessage = false;
  if (
    handle.includes("@") &&
    (changes.platform === "android" || changes.imessage === false || changes.whatsapp === true)
  ) {
    throw invalidRequest(`handle: ${handle} is an iMessage email address; it is iOS, on iMessage and not on WhatsApp`);
  }
  return ctx.db.transaction(() => withDescription(setContactProfile(ctx, handle, changes)));
}
