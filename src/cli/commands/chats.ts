import type { ChalkInstance } from "chalk";
import type { ChatResource } from "../../contract/index.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { details, table, type Output } from "../output.js";
import { UsageError } from "../usage-error.js";

/** Who a thread is with, in one cell: the contact, or a group's members. */
const withWhom = (c: ChatResource, width = 48) => {
  const text = c.participants.join(", ");
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
};

/** Key/value lines for one chat: a one-to-one thread's contact, or a group's title and members. */
export function chatDetails(color: ChalkInstance, c: ChatResource): string[] {
  const who: [string, unknown][] = c.is_group
    ? [
        ["group", "yes"],
        ["title", c.title],
        ["participants", c.participants.join(", ")],
      ]
    : [["with", c.remote_handle]];
  return details(color, [
    ["id", c.id],
    ["from", c.from_handle],
    ...who,
    ["last message", c.last_message_at],
    ["created", c.created_at],
    ["updated", c.updated_at],
  ]);
}

/** `msgctl chats list [--limit N] [--before T]`: threads, newest activity first (GET /v1/chats). */
export async function chatsList(
  options: ConnectionFlags & { limit?: number; before?: string },
  out: Output,
): Promise<ChatResource[]> {
  const page = await connect(options).chats.list({ limit: options.limit, before: options.before });
  // Under --json stdout holds the page alone: the note on stderr tells a script it did not see everything.
  const more = page.hasMore ? `--before ${page.data.at(-1)?.last_message_at}` : undefined;
  out.result(page.data, (chats) => {
    const lines = table(
      out.color,
      ["ID", "FROM", "WITH", "GROUP", "TITLE", "LAST MESSAGE"],
      chats.map((c) => [c.id, c.from_handle, withWhom(c), c.is_group ? "yes" : "", c.title, c.last_message_at]),
    );
    if (more) lines.push(out.color.dim(`More: ${more}`));
    return lines;
  });
  if (more && out.json) out.note(`More: ${more}`);
  return page.data;
}

/** `msgctl chats get ID` (GET /v1/chats/:id). */
export async function chatsGet(id: string, options: ConnectionFlags, out: Output): Promise<ChatResource> {
  const chat = await connect(options).chats.get(id);
  out.result(chat, (c) => chatDetails(out.color, c));
  return chat;
}

/** A comma-separated list of handles from a flag (`--to H,H…`, `--members H,H…`). */
export function handleList(value: string, flag: string): string[] {
  const handles = value
    .split(",")
    .map((handle) => handle.trim())
    .filter(Boolean);
  if (handles.length === 0) throw new UsageError(`${flag} needs at least one handle (H,H…)`);
  return handles;
}

/** `msgctl chats create --from N --to H,H… --message T [--title T] [--idempotency-key K]`: POST /v1/chats. */
export async function chatsCreate(
  options: ConnectionFlags & { from: string; to: string; message: string; title?: string; idempotencyKey?: string },
  out: Output,
): Promise<ChatResource> {
  const addresses = handleList(options.to, "--to");
  const { chat, replayed } = await connect(options).chats.create(
    { from_handle: options.from, addresses, message: options.message, title: options.title },
    { idempotencyKey: options.idempotencyKey },
  );
  if (!out.json)
    out.line(replayed ? `Already created with this idempotency key: ${chat.id}` : `Created group ${chat.id}`);
  out.result(chat, (c) => chatDetails(out.color, c));
  return chat;
}

/** `msgctl chats rename ID --title T`: PATCH /v1/chats/:id. */
export async function chatsRename(
  id: string,
  options: ConnectionFlags & { title: string },
  out: Output,
): Promise<ChatResource> {
  const chat = await connect(options).chats.rename(id, options.title);
  out.result(chat, (c) => chatDetails(out.color, c));
  return chat;
}

/** `msgctl chats add ID HANDLE` / `chats remove ID HANDLE`: the group's participants. */
export async function chatsMember(
  what: "add" | "remove",
  id: string,
  handle: string,
  options: ConnectionFlags,
  out: Output,
): Promise<ChatResource> {
  const chats = connect(options).chats;
  const chat = what === "add" ? await chats.addParticipant(id, handle) : await chats.removeParticipant(id, handle);
  out.result(chat, (c) => [`${what === "add" ? "Added" : "Removed"} ${handle}`, ...chatDetails(out.color, c)]);
  return chat;
}

/** `msgctl chats read ID`: marks the thread read, so its contacts see read receipts. */
export async function chatsRead(id: string, options: ConnectionFlags, out: Output): Promise<ChatResource> {
  const chat = await connect(options).chats.read(id);
  out.result(chat, (c) => [`Marked ${c.id} read`]);
  return chat;
}

/** `msgctl chats typing ID [--stop]`: shows (or hides) the typing bubble on the contacts' phones. */
export async function chatsTyping(
  id: string,
  options: ConnectionFlags & { stop?: boolean },
  out: Output,
): Promise<ChatResource> {
  const client = connect(options);
  const chat = await client.chats.typing(id, !options.stop);
  if (out.json) {
    out.result(chat, () => undefined);
    return chat;
  }
  if (options.stop) out.line(`Typing bubble hidden in ${chat.id}`);
  else {
    const { typing_expires_at: until } = await client.simulate.remoteView(chat.id);
    out.line(`Typing bubble shown in ${chat.id} until ${until} (it hides by itself; run again to keep it showing)`);
  }
  return chat;
}
