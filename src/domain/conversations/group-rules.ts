import type { Channel } from "../../contract/common.js";
import type { GroupKind } from "../../store/conversations/index.js";
import type { Service } from "./threads.js";

export type { GroupKind };

/** What a kind of group is, and what may be done to it (spec 4.5). */
export interface GroupKindRules {
  /** The channel every message of the group goes over. */
  channel: Channel;
  service: Service;
  /** Rename and member changes through the API: allowed, or the 409 they get. */
  apiChanges: "allowed" | "not_a_group" | "invalid_state";
  /** Contacts may rename the group and change its members (simulate rename, simulate add/remove). */
  contactChanges: boolean;
  /** Typing indicators and read receipts exist (not on SMS/MMS). */
  typingAndRead: boolean;
  /** Most members, the account's numbers included. */
  maxMembers: number;
  /** Fewest members a removal may leave, the account's numbers included. */
  minMembers: number;
  /** The kind in a sentence: "An iMessage group". */
  name: string;
}

/**
 * Spec 4.5 as data. Only iMessage groups can be created, renamed or have members changed through
 * the API; a group MMS thread (any non-iMessage member) is 409 invalid_state, a WhatsApp group 409
 * not_a_group. An iMessage group holds at most 32 people (the creator and 31 addresses, spec 8),
 * and a member can be removed only while 3 would remain, as on an iPhone.
 */
export const GROUP_KINDS: Readonly<Record<GroupKind, GroupKindRules>> = Object.freeze({
  imessage: {
    channel: "imessage",
    service: "text",
    apiChanges: "allowed",
    contactChanges: true,
    typingAndRead: true,
    maxMembers: 32,
    minMembers: 3,
    name: "An iMessage group",
  },
  mms: {
    channel: "sms",
    service: "text",
    apiChanges: "invalid_state",
    contactChanges: false,
    typingAndRead: false,
    maxMembers: 32,
    minMembers: 3,
    name: "A group MMS thread",
  },
  whatsapp: {
    channel: "whatsapp",
    service: "whatsapp",
    apiChanges: "not_a_group",
    contactChanges: true,
    typingAndRead: true,
    maxMembers: 1024,
    minMembers: 2,
    name: "A WhatsApp group",
  },
});

/** How long the contacts see the account's typing bubble after `typing: true`, unless refreshed or hidden. */
export const TYPING_BUBBLE_MS = 60_000;
