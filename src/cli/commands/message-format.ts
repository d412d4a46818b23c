import type { ChalkInstance } from "chalk";
import type { ContactView, MessageResource, NumberFaults } from "../../contract/index.js";
import { details, table } from "../output.js";

/** A status, coloured by how it went. */
function statusText(color: ChalkInstance, status: string): string {
  if (status === "failed") return color.red(status);
  if (status === "read" || status === "delivered") return color.green(status);
  if (status === "unsent") return color.dim(status);
  return color.yellow(status);
}

/** Key/value lines for one message. */
export function messageDetails(color: ChalkInstance, m: MessageResource): string[] {
  const entries: [string, unknown][] = [
    ["id", m.id],
    ["conversation", m.conversation_id],
    ["direction", m.direction],
    ["status", statusText(color, m.status)],
    ["channel", m.channel],
    ["text", m.text],
  ];
  if (m.error) entries.push(["error", color.red(m.error)]);
  if (m.effect) entries.push(["effect", m.effect]);
  if (m.reply_to) entries.push(["reply to", m.reply_to]);
  if (m.metadata) entries.push(["metadata", m.metadata]);
  for (const a of m.attachments) {
    const note = a.delivery && a.delivery.decision !== "unchanged" ? `, ${a.delivery.decision.replace(/_/g, " ")}` : "";
    const duration = a.duration_seconds === null ? "" : `, ${a.duration_seconds} s`;
    entries.push([
      "attachment",
      `${a.id} ${a.filename} (${a.mime_type}, ${a.size_bytes} bytes${duration}${a.is_voice_memo ? ", voice memo" : ""}${note})`,
    ]);
  }
  // A group message: how far it got with each member.
  if (m.recipients?.length)
    entries.push([
      "recipients",
      m.recipients.map((r) => `${r.handle} ${r.read_at ? "read" : r.delivered_at ? "delivered" : "sent"}`).join(", "),
    ]);
  entries.push(["created", m.created_at]);
  for (const [label, value] of [
    ["sent", m.sent_at],
    ["delivered", m.delivered_at],
    ["read", m.read_at],
    ["edited", m.edited_at],
  ] as const) {
    if (value) entries.push([label, value]);
  }
  return details(color, entries);
}

const clip = (text: string | null, width = 40) =>
  text === null ? "" : text.length > width ? `${text.slice(0, width - 1)}…` : text;

/** A table of messages, newest first. */
export function messagesTable(color: ChalkInstance, messages: MessageResource[]): string[] {
  return table(
    color,
    ["ID", "CREATED", "DIR", "STATUS", "CHANNEL", "TEXT"],
    messages.map((m) => [
      m.id,
      m.created_at,
      m.direction === "inbound" ? "in" : "out",
      statusText(color, m.status),
      m.channel ?? "",
      clip(m.text),
    ]),
  );
}

/** A table of contacts. */
export function contactsTable(color: ChalkInstance, contacts: ContactView[]): string[] {
  const yes = (value: boolean) => (value ? "yes" : color.dim("no"));
  return table(
    color,
    ["HANDLE", "PLATFORM", "IMESSAGE", "WHATSAPP", "REACHABLE", "READ RECEIPTS", "SOURCE"],
    contacts.map((c) => [
      c.handle,
      c.platform,
      yes(c.imessage),
      yes(c.whatsapp),
      yes(c.reachable),
      yes(c.read_receipts),
      c.description ? `${c.source}: ${c.description}` : c.source,
    ]),
  );
}

/** Key/value lines for a number's faults. */
export function faultDetails(color: ChalkInstance, f: NumberFaults): string[] {
  return details(color, [
    ["number", f.handle],
    ["status", f.status === "online" ? color.green(f.status) : color.yellow(f.status)],
    ["offline", f.offline ? "yes" : "no"],
    ["transient errors", f.transient_remaining],
    [
      "rate limited",
      f.rate_limited
        ? `yes (level ${f.rate_limit_level}${f.rate_limited_until ? `, cool-down until ${f.rate_limited_until}` : ""})`
        : "no",
    ],
    ["re-link needed", f.relink_required ? "yes" : "no"],
  ]);
}
