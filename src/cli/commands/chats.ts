import type { ChatResource } from "../../contract/index.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { details, table, type Output } from "../output.js";

/** `msgctl chats list [--limit N] [--before T]`: threads, newest activity first (GET /v1/chats). */
export async function chatsList(options: ConnectionFlags & { limit?: number; before?: string }, out: Output): Promise<ChatResource[]> {
  const page = await connect(options).chats.list({ limit: options.limit, before: options.before });
  out.result(page.data, (chats) => {
    const lines = table(
      out.color,
      ["ID", "FROM", "WITH", "GROUP", "TITLE", "LAST MESSAGE"],
      chats.map((c) => [c.id, c.from_handle, c.remote_handle, c.is_group ? "yes" : "", c.title, c.last_message_at]),
    );
    if (page.hasMore) lines.push(out.color.dim(`More: --before ${chats.at(-1)?.last_message_at}`));
    return lines;
  });
  return page.data;
}

/** `msgctl chats get ID` (GET /v1/chats/:id). */
export async function chatsGet(id: string, options: ConnectionFlags, out: Output): Promise<ChatResource> {
  const chat = await connect(options).chats.get(id);
  out.result(chat, (c) =>
    details(out.color, [
      ["id", c.id],
      ["from", c.from_handle],
      ["with", c.remote_handle],
      ["group", c.is_group],
      ["title", c.title],
      ["last message", c.last_message_at],
      ["created", c.created_at],
      ["updated", c.updated_at],
    ]),
  );
  return chat;
}
