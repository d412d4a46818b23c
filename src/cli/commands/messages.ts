import type { HandleAvailability, MessageResource, MessageStatus, SendMessageInput } from "../../contract/index.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { details, type Output } from "../output.js";
import { UsageError } from "../usage-error.js";
import { messageDetails, messagesTable } from "./message-format.js";
import { uploadFiles } from "./upload-files.js";
import { waitForStatus } from "./message-wait.js";
import { timeoutMs, WaitTimeout } from "./wait.js";
import { DEFAULT_WAIT_TIMEOUT } from "../defaults.js";

/** Options of `msgctl send`. */
export interface SendOptions extends ConnectionFlags {
  to?: string;
  from?: string;
  conversation?: string;
  text?: string;
  /** Files to upload and send. */
  attach?: string[];
  channel?: "whatsapp";
  effect?: string;
  replyTo?: string;
  voiceMemo?: boolean;
  mediaQuality?: "fit" | "original";
  idempotencyKey?: string;
  wait?: MessageStatus;
  timeout?: string;
}

/** `msgctl send`: uploads `--attach` files, POST /v1/messages, then optionally waits for sent, delivered or read (spinner). */
export async function send(options: SendOptions, out: Output): Promise<MessageResource> {
  if (options.conversation !== undefined && (options.to !== undefined || options.from !== undefined)) {
    throw new UsageError("Use --conversation ID, or --to H with --from N, not both");
  }
  if (options.conversation === undefined && (options.to === undefined || options.from === undefined)) {
    throw new UsageError("Name the recipient: --to H --from N (one of your numbers), or --conversation ID");
  }
  if (options.text === undefined && !options.attach?.length)
    throw new UsageError("Give --text, --attach FILE, or both");
  const limit = options.wait ? timeoutMs(options.timeout) : 0;
  const client = connect(options);
  const attachments = options.attach?.length ? await uploadFiles(client, options.attach, out) : [];
  const input: SendMessageInput = {
    to: options.to,
    from_handle: options.from,
    conversation_id: options.conversation,
    text: options.text,
    channel: options.channel,
    effect: options.effect,
    reply_to: options.replyTo,
    voice_memo: options.voiceMemo,
    media_quality: options.mediaQuality,
    attachment_ids: attachments.length > 0 ? attachments.map((a) => a.id) : undefined,
  };
  const { message, replayed } = await client.messages.send(input, { idempotencyKey: options.idempotencyKey });
  if (!out.json)
    out.line(
      replayed ? `Already sent with this idempotency key: ${message.id} (${message.status})` : `Queued ${message.id}`,
    );
  let final = message;
  if (options.wait) {
    try {
      final = await waitForStatus(
        client,
        message.id,
        options.wait,
        limit,
        out,
        options.timeout ?? DEFAULT_WAIT_TIMEOUT,
      );
    } catch (error) {
      // The message exists whatever became of the wait: a script gets it, as last seen, in the
      // error's `last_seen` (one JSON object on stdout), and the exit status says the wait failed.
      if (error instanceof Error && !(error instanceof WaitTimeout && error.lastSeen)) {
        Object.assign(error, { lastSeen: message });
      }
      throw error;
    }
  }
  out.result(final, (m) => messageDetails(out.color, m));
  return final;
}

/** `msgctl messages list [--conversation ID] [--limit N] [--before T] [--all]`. */
export async function messagesList(
  options: ConnectionFlags & { conversation?: string; limit?: number; before?: string; all?: boolean },
  out: Output,
): Promise<MessageResource[]> {
  const client = connect(options);
  let messages: MessageResource[];
  let hasMore = false;
  if (options.all) {
    messages = [];
    for await (const m of client.messages.all({ conversationId: options.conversation, limit: 100 })) messages.push(m);
  } else {
    const page = await client.messages.list({
      conversationId: options.conversation,
      limit: options.limit,
      before: options.before,
    });
    messages = page.data;
    hasMore = page.hasMore;
  }
  // Under --json stdout holds the page alone: the note on stderr tells a script it did not see everything.
  const more = hasMore ? `--before ${messages.at(-1)?.created_at} (or --all)` : undefined;
  out.result(messages, (list) => {
    const lines = messagesTable(out.color, list);
    if (more) lines.push(out.color.dim(`More: ${more}`));
    return lines;
  });
  if (more && out.json) out.note(`More: ${more}`);
  return messages;
}

/** `msgctl messages get ID`. */
export async function messagesGet(id: string, options: ConnectionFlags, out: Output): Promise<MessageResource> {
  const message = await connect(options).messages.get(id);
  out.result(message, (m) => messageDetails(out.color, m));
  return message;
}

/** `messages react|edit|unsend|retry ID`: prints the message as the API answered. */
export async function messagesAction(
  action: "react" | "edit" | "unsend" | "retry",
  id: string,
  options: ConnectionFlags & { reaction?: string; remove?: boolean; text?: string },
  out: Output,
): Promise<MessageResource> {
  const messages = connect(options).messages;
  const message =
    action === "react"
      ? await messages.react(id, options.reaction ?? "", options.remove)
      : action === "edit"
        ? await messages.edit(id, options.text ?? "")
        : action === "unsend"
          ? await messages.unsend(id)
          : await messages.retry(id);
  const done = {
    react: options.remove ? "Reaction removal queued" : "Reaction queued",
    edit: "Edit queued (lands after the send latency)",
    unsend: "Unsend queued (lands after the send latency)",
    retry: "Queued again",
  }[action];
  out.result(message, (m) => [out.color.green(done), ...messageDetails(out.color, m)]);
  return message;
}

/** `msgctl availability HANDLE`: GET /v1/handles/availability. */
export async function availability(handle: string, options: ConnectionFlags, out: Output): Promise<HandleAvailability> {
  const result = await connect(options).messages.availability(handle);
  out.result(result, (a) =>
    details(out.color, [
      ["handle", a.handle],
      ["imessage", a.imessage ? "yes" : "no"],
      ["channel", a.channel],
    ]),
  );
  return result;
}
