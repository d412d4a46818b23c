import type { ChatResource } from "../../contract/index.js";
import { connect, type ConnectionFlags } from "../connection.js";
import type { Output } from "../output.js";
import { chatDetails } from "./chats.js";

/** `msgctl simulate rename ID --title T [--from H]`: a member renames the group. */
export async function simulateRename(
  id: string,
  options: ConnectionFlags & { title: string; from?: string },
  out: Output,
): Promise<ChatResource> {
  const chat = await connect(options).simulate.rename({
    conversation_id: id,
    title: options.title,
    from: options.from,
  });
  out.result(chat, (c) => chatDetails(out.color, c));
  return chat;
}

/** `msgctl simulate add|remove ID HANDLE --from H`: a member adds someone to the group, or removes someone. */
export async function simulateMember(
  action: "add" | "remove",
  id: string,
  handle: string,
  options: ConnectionFlags & { from: string },
  out: Output,
): Promise<ChatResource> {
  const chat = await connect(options).simulate.participants({
    conversation_id: id,
    action,
    handle,
    from: options.from,
  });
  out.result(chat, (c) => [
    `${options.from} ${action === "add" ? "added" : "removed"} ${handle}`,
    ...chatDetails(out.color, c),
  ]);
  return chat;
}
