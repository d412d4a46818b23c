import type { ContactTraits, ContactView } from "../../contract/world.js";
import { findContact, listContacts, upsertContact, type ContactsTable } from "../../store/world/index.js";
import type { DomainContext } from "../core/index.js";

/** A phone (or iMessage address) on the other side, and what decides routing to it. */
export type ContactProfile = Omit<ContactView, "description">;

type Traits = ContactTraits;

/** The profile of any phone that is neither on record nor magic: iMessage on iOS, read receipts on. */
const DEFAULT_PROFILE: Readonly<Traits> = Object.freeze({
  imessage: true,
  platform: "ios",
  whatsapp: true,
  reachable: true,
  read_receipts: true,
});

/**
 * Magic numbers, like Stripe's test cards: fixed behaviour without any set-up
 * (docs/simulated-world.md). All inside +1 415 555 0170..0179.
 */
export const MAGIC_NUMBERS: Readonly<Record<string, { description: string; traits: Traits }>> = Object.freeze({
  "+14155550170": {
    description: "Android phone (SMS, WhatsApp; must message first)",
    traits: { ...DEFAULT_PROFILE, imessage: false, platform: "android" },
  },
  "+14155550171": {
    description: "unreachable phone (messages stay sent)",
    traits: { ...DEFAULT_PROFILE, reachable: false },
  },
  "+14155550172": {
    description: "iPhone with read receipts off",
    traits: { ...DEFAULT_PROFILE, read_receipts: false },
  },
  "+14155550173": {
    description: "iPhone not registered with iMessage (SMS)",
    traits: { ...DEFAULT_PROFILE, imessage: false },
  },
  "+14155550174": { description: "iPhone without WhatsApp", traits: { ...DEFAULT_PROFILE, whatsapp: false } },
  "+14155550175": {
    description: "Android phone without WhatsApp",
    traits: { ...DEFAULT_PROFILE, imessage: false, platform: "android", whatsapp: false },
  },
  "+14155550176": {
    description: "iPhone; naming a group created with it fails (title stays null)",
    traits: { ...DEFAULT_PROFILE },
  },
});

/** The magic number whose presence in POST /v1/chats makes the best-effort naming fail (spec 4.5). */
export const GROUP_NAMING_FAILS = "+14155550176";

function fromRow(row: ContactsTable): ContactProfile {
  return {
    handle: row.handle,
    imessage: row.imessage === 1,
    platform: row.platform,
    whatsapp: row.whatsapp === 1,
    reachable: row.reachable === 1,
    read_receipts: row.read_receipts === 1,
    source: "contact",
  };
}

/** The profile that decides routing to a handle: on record, else magic, else the default. */
export function contactProfile(ctx: DomainContext, handle: string): ContactProfile {
  return profileOf(handle, findContact(ctx.db, handle));
}

/** The profile of a handle whose contact row (or its absence) was read already, by the same rule. */
export function profileOf(handle: string, row: ContactsTable | undefined): ContactProfile {
  if (row) return fromRow(row);
  if (handle.includes("@")) {
    // An email handle is an iMessage address.
    return { handle, ...DEFAULT_PROFILE, whatsapp: false, source: "default" };
  }
  const magic = MAGIC_NUMBERS[handle];
  if (magic) return { handle, ...magic.traits, source: "magic" };
  return { handle, ...DEFAULT_PROFILE, source: "default" };
}

/** Sets (part of) a contact's profile, starting from what routing uses today. */
export function setContactProfile(ctx: DomainContext, handle: string, changes: Partial<Traits>): ContactProfile {
  const current = contactProfile(ctx, handle);
  const next = { ...current, ...changes };
  const now = ctx.clock.now();
  upsertContact(ctx.db, {
    handle,
    imessage: next.imessage ? 1 : 0,
    platform: next.platform,
    whatsapp: next.whatsapp ? 1 : 0,
    reachable: next.reachable ? 1 : 0,
    read_receipts: next.read_receipts ? 1 : 0,
    created_at: now,
    updated_at: now,
  });
  return { ...next, handle, source: "contact" };
}

/** Contacts on record (not magic or default ones). */
export function listContactProfiles(ctx: DomainContext): ContactProfile[] {
  return listContacts(ctx.db).map(fromRow);
}
