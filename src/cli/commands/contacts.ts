import type { ContactTraits, ContactView } from "../../contract/index.js";
import { connect, type ConnectionFlags } from "../connection.js";
import type { Output } from "../output.js";
import { UsageError } from "../usage-error.js";
import { contactsTable } from "./message-format.js";

/** `msgctl contacts list`: the contacts on record, then the magic numbers. */
export async function contactsList(options: ConnectionFlags, out: Output): Promise<ContactView[]> {
  const contacts = await connect(options).contacts.list();
  out.result(contacts, (list) => contactsTable(out.color, list));
  return contacts;
}

/** Flags of `contacts set`, as commander gives them (`--no-x` makes `x: false`). */
export interface ContactSetOptions extends ConnectionFlags {
  imessage?: boolean;
  platform?: "ios" | "android";
  whatsapp?: boolean;
  reachable?: boolean;
  unreachable?: boolean;
  readReceipts?: boolean;
}

/** `msgctl contacts set H [--imessage|--no-imessage] [--platform P] [--whatsapp|--no-whatsapp] [--unreachable|--reachable] [--read-receipts|--no-read-receipts]`. */
export async function contactsSet(handle: string, options: ContactSetOptions, out: Output): Promise<ContactView> {
  if (options.reachable && options.unreachable) throw new UsageError("Use --reachable or --unreachable, not both");
  const traits: Partial<ContactTraits> = {};
  if (options.imessage !== undefined) traits.imessage = options.imessage;
  if (options.platform !== undefined) traits.platform = options.platform;
  if (options.whatsapp !== undefined) traits.whatsapp = options.whatsapp;
  if (options.reachable) traits.reachable = true;
  if (options.unreachable) traits.reachable = false;
  if (options.readReceipts !== undefined) traits.read_receipts = options.readReceipts;
  const contact = await connect(options).contacts.set(handle, traits);
  out.result(contact, (c) => contactsTable(out.color, [c]));
  return contact;
}
