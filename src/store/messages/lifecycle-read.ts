import { compileOnce } from "../engine/compiled-query.js";
import type { Db } from "../engine/db.js";
import type { ContactsTable, NumberFaultsRow } from "../world/index.js";
import type { MessageRow } from "./messages.js";

/** A message as a lifecycle job reads it: its row, its group link and its recipient's contact. */
export interface LifecycleRead {
  /** The message's row (it may carry the read's other columns as well: read the row's own only). */
  row: MessageRow;
  /** The group of a group message (its link row), null for a one-to-one message. */
  groupId: string | null;
  /** The contact on record for the row's remote handle, undefined when there is none. */
  contact: ContactsTable | undefined;
}

type Joined = MessageRow & {
  link_group_id: string | null;
  contact_handle: string | null;
  contact_imessage: number | null;
  contact_platform: ContactsTable["platform"] | null;
  contact_whatsapp: number | null;
  contact_reachable: number | null;
  contact_read_receipts: number | null;
  contact_created_at: number | null;
  contact_updated_at: number | null;
};

/** A queued message as its send attempt reads it: what every lifecycle job reads, and the sending number's faults. */
export interface SendRead extends LifecycleRead {
  /** The sending number's fault row, undefined when it never had one. */
  faults: NumberFaultsRow | undefined;
}

type JoinedWithFaults = Joined & {
  faults_handle: string | null;
  faults_offline: number | null;
  faults_transient_remaining: number | null;
  faults_rate_limited: number | null;
  faults_rate_limit_level: number | null;
  faults_rate_limited_until: number | null;
  faults_relink_required: number | null;
  faults_updated_at: number | null;
};

/** The group link's and the contact's columns, as the joined rows name them. */
const LINK_AND_CONTACT = [
  "g.group_id as link_group_id",
  "c.handle as contact_handle",
  "c.imessage as contact_imessage",
  "c.platform as contact_platform",
  "c.whatsapp as contact_whatsapp",
  "c.reachable as contact_reachable",
  "c.read_receipts as contact_read_receipts",
  "c.created_at as contact_created_at",
  "c.updated_at as contact_updated_at",
] as const;

// Every transition read the message, its group link and its recipient's contact one after the
// other (bench/HISTORY.md, "Where an advance's statements go"); both are primary-key lookups, so
// the left joins add at most one row's columns to the message's.
const lifecycleQuery = compileOnce<[string], Joined>((q, arg) =>
  q
    .selectFrom("messages as m")
    .leftJoin("group_messages as g", "g.message_id", "m.id")
    .leftJoin("contacts as c", "c.handle", "m.remote_handle")
    .selectAll("m")
    .select(LINK_AND_CONTACT)
    .where("m.id", "=", arg(0)),
);

// The send attempt also meets its number's faults: one more primary-key lookup in the same read.
const sendQuery = compileOnce<[string], JoinedWithFaults>((q, arg) =>
  q
    .selectFrom("messages as m")
    .leftJoin("group_messages as g", "g.message_id", "m.id")
    .leftJoin("contacts as c", "c.handle", "m.remote_handle")
    .leftJoin("number_faults as f", "f.handle", "m.number_handle")
    .selectAll("m")
    .select([
      ...LINK_AND_CONTACT,
      "f.handle as faults_handle",
      "f.offline as faults_offline",
      "f.transient_remaining as faults_transient_remaining",
      "f.rate_limited as faults_rate_limited",
      "f.rate_limit_level as faults_rate_limit_level",
      "f.rate_limited_until as faults_rate_limited_until",
      "f.relink_required as faults_relink_required",
      "f.updated_at as faults_updated_at",
    ])
    .where("m.id", "=", arg(0)),
);

/** The read's parts: the row, the group link, the contact (whose columns are all NOT NULL: a null handle means none matched). */
function lifecycleParts(joined: Joined): LifecycleRead {
  const contact: ContactsTable | undefined =
    joined.contact_handle === null
      ? undefined
      : ({
          handle: joined.contact_handle,
          imessage: joined.contact_imessage,
          platform: joined.contact_platform,
          whatsapp: joined.contact_whatsapp,
          reachable: joined.contact_reachable,
          read_receipts: joined.contact_read_receipts,
          created_at: joined.contact_created_at,
          updated_at: joined.contact_updated_at,
        } as ContactsTable);
  return { row: joined, groupId: joined.link_group_id, contact };
}

/** A message by id with its group link and its recipient's contact, in one read (every lifecycle job). */
export function findLifecycleMessage(db: Db, id: string): LifecycleRead | undefined {
  const joined = db.first(lifecycleQuery(id));
  return joined ? lifecycleParts(joined) : undefined;
}

/** A message by id with its group link, its recipient's contact and its number's faults, in one read (send attempts). */
export function findSendMessage(db: Db, id: string): SendRead | undefined {
  const joined = db.first(sendQuery(id));
  if (!joined) return undefined;
  // A fault row's handle is its primary key: null only when the number never had faults.
  const faults: NumberFaultsRow | undefined =
    joined.faults_handle === null
      ? undefined
      : ({
          handle: joined.faults_handle,
          offline: joined.faults_offline,
          transient_remaining: joined.faults_transient_remaining,
          rate_limited: joined.faults_rate_limited,
          rate_limit_level: joined.faults_rate_limit_level,
          rate_limited_until: joined.faults_rate_limited_until,
          relink_required: joined.faults_relink_required,
          updated_at: joined.faults_updated_at,
        } as NumberFaultsRow);
  return { ...lifecycleParts(joined), faults };
}
