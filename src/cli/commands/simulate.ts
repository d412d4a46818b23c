import type { ChatResource, FaultName, MessageResource, NumberFaults } from "../../contract/index.js";
import { connect, type ConnectionFlags } from "../connection.js";
import type { Output } from "../output.js";
import { UsageError } from "../usage-error.js";
import { handleList } from "./chats.js";
import { faultDetails, messageDetails } from "./message-format.js";
import { uploadFiles } from "./upload-files.js";

/**
 * `msgctl simulate inbound --from H --to N [--text T] [--attach FILE…] [--voice-memo] [--duration S] [--channel C]
 * [--members H,H… | --group ID]`: prints the inbound Message.
 */
export async function simulateInbound(
  options: ConnectionFlags & {
    from: string;
    to?: string;
    text?: string;
    attach?: string[];
    voiceMemo?: boolean;
    duration?: number;
    channel?: "imessage" | "sms" | "whatsapp";
    members?: string;
    group?: string;
  },
  out: Output,
): Promise<MessageResource> {
  if (options.text === undefined && !options.attach?.length)
    throw new UsageError("Give --text, --attach FILE, or both");
  if ((options.voiceMemo || options.duration !== undefined) && !options.attach?.length) {
    throw new UsageError(`${options.voiceMemo ? "--voice-memo" : "--duration"} goes with --attach FILE`);
  }
  if (options.members !== undefined && options.group !== undefined)
    throw new UsageError("Use --members H,H… (a new group) or --group ID (an existing one), not both");
  if (options.to === undefined && options.group === undefined)
    throw new UsageError("--to N (one of your numbers) is required, unless --group ID");
  const members = options.members === undefined ? undefined : handleList(options.members, "--members");
  const client = connect(options);
  // The contact's files are uploaded first; the inbound message then claims them.
  const attachments = options.attach?.length ? await uploadFiles(client, options.attach, out) : [];
  const message = await client.simulate.inbound({
    from: options.from,
    to: options.to,
    text: options.text,
    channel: options.channel,
    members,
    group: options.group,
    ...(attachments.length > 0 ? { attachment_ids: attachments.map((a) => a.id) } : {}),
    ...(options.voiceMemo ? { voice_memo: true } : {}),
    ...(options.duration !== undefined ? { duration_seconds: options.duration } : {}),
  });
  out.result(message, (m) => messageDetails(out.color, m));
  return message;
}

/** `msgctl simulate delivered|read ID` and `fail ID [--error T]`: forces an outbound message's next state. */
export async function simulateProgress(
  what: "delivered" | "read" | "fail",
  id: string,
  options: ConnectionFlags & { error?: string },
  out: Output,
): Promise<MessageResource> {
  const simulate = connect(options).simulate;
  const message = what === "fail" ? await simulate.fail(id, options.error) : await simulate[what](id);
  out.result(message, (m) => messageDetails(out.color, m));
  return message;
}

/** `msgctl simulate reaction ID --from H --reaction R [--remove]`. */
export async function simulateReaction(
  id: string,
  options: ConnectionFlags & { from: string; reaction: string; remove?: boolean },
  out: Output,
): Promise<MessageResource> {
  const message = await connect(options).simulate.reaction({
    message_id: id,
    from: options.from,
    reaction: options.reaction,
    remove: options.remove,
  });
  out.result(message, () => [`${options.from} ${options.remove ? "removed" : "reacted"} ${options.reaction} on ${id}`]);
  return message;
}

/** `msgctl simulate typing --from H --to N | --group ID [--stop]`. */
export async function simulateTyping(
  options: ConnectionFlags & { from: string; to?: string; group?: string; stop?: boolean },
  out: Output,
): Promise<ChatResource> {
  if ((options.to === undefined) === (options.group === undefined))
    throw new UsageError("Name the thread: --to N (one-to-one) or --group ID, one of them");
  const chat = await connect(options).simulate.typing({
    from: options.from,
    to: options.to,
    conversation_id: options.group,
    typing: !options.stop,
  });
  out.result(chat, (c) => [`${options.from} ${options.stop ? "stopped typing" : "is typing"} in ${c.id}`]);
  return chat;
}

/** `msgctl simulate edit ID --text T`: the contact edits their message. */
export async function simulateEdit(
  id: string,
  options: ConnectionFlags & { text: string },
  out: Output,
): Promise<MessageResource> {
  const message = await connect(options).simulate.edit({ message_id: id, text: options.text });
  out.result(message, (m) => messageDetails(out.color, m));
  return message;
}

/**
 * `msgctl simulate fault N offline|online|transient [--count K|--off]|rate-limited [--off]|relink-required [--off]`;
 * with no fault, shows the number's faults.
 */
export async function simulateFault(
  number: string,
  fault: FaultName | undefined,
  options: ConnectionFlags & { count?: number; off?: boolean },
  out: Output,
): Promise<NumberFaults> {
  if (fault === undefined) return showFaults(number, options, out);
  if (options.count !== undefined && fault !== "transient")
    throw new UsageError("--count goes with the transient fault only");
  if (options.count !== undefined && options.off) throw new UsageError("Use --count K or --off, not both");
  if (options.off && (fault === "offline" || fault === "online"))
    throw new UsageError(`--off does not apply to ${fault}: use \`simulate fault N online\``);
  const result = await connect(options).simulate.fault(number, fault, {
    count: options.count,
    off: options.off,
  });
  out.result(result, (f) => faultDetails(out.color, f));
  return result;
}

/** `msgctl simulate fault N` with no fault: shows the number's faults. */
async function showFaults(number: string, options: ConnectionFlags, out: Output): Promise<NumberFaults> {
  const result = await connect(options).simulate.faults(number);
  out.result(result, (f) => faultDetails(out.color, f));
  return result;
}
