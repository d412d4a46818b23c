import type { ComponentChildren } from "preact";
import type { AttachmentResource, MessageResource, ReactionView } from "../../contract/types.js";
import { channelName, clockOf, effectName, reactionGlyph, sizeOf, timeOf } from "../format.js";

/** One message as one phone draws it. */
export interface BubbleProps {
  message: MessageResource;
  /** Drawn on the right (this phone sent it) or the left. */
  mine: boolean;
  /** Who sent it, shown above the bubble in groups; null in one-to-one threads. */
  senderLabel: string | null;
  reactions: ReactionView[];
  /** The message it replies to, when loaded. */
  repliedTo: MessageResource | undefined;
  /** The status line under it, or null for none. */
  status: { text: string; failed: boolean } | null;
  /** This phone's actions on the message (a menu), if any. */
  actions?: ComponentChildren;
  highlighted: boolean;
  onShowReply(id: string): void;
}

/** The status line under an outbound bubble on the business's phone. */
export function outboundStatus(message: MessageResource): { text: string; failed: boolean } {
  switch (message.status) {
    case "queued":
      return { text: "Queued", failed: false };
    case "sent":
      return { text: `Sent ${timeOf(message.sent_at)}`, failed: false };
    case "delivered":
      return { text: `Delivered ${timeOf(message.delivered_at)}`, failed: false };
    case "read":
      return { text: `Read ${timeOf(message.read_at)}`, failed: false };
    case "failed":
      return { text: `Failed: ${message.error ?? "no reason given"}`, failed: true };
    case "unsent":
      return { text: "Unsent", failed: false };
  }
}

/** A message as a bubble: text, media, marks, reactions, and what it replies to. */
export function Bubble(props: BubbleProps) {
  const { message, mine } = props;
  const unsent = message.status === "unsent";
  const channel = message.channel ?? "pending";
  return (
    <li
      class={`message ${mine ? "mine" : "theirs"} ${props.highlighted ? "highlighted" : ""}`}
      id={`m-${message.id}`}
      data-message-id={message.id}
      data-status={message.status}
    >
      {props.senderLabel && <span class="sender">{props.senderLabel}</span>}
      {message.reply_to && (
        <button type="button" class="reply-link" onClick={() => props.onShowReply(message.reply_to as string)}>
          ↩{" "}
          {props.repliedTo
            ? `Replying to “${snippet(props.repliedTo.text) || "an attachment"}”`
            : "Replying to an earlier message"}
        </button>
      )}
      <div class="bubble-row">
        {unsent ? (
          <p class={`bubble unsent`}>{mine ? "You unsent a message" : "This message was unsent"}</p>
        ) : (
          <div
            class={`bubble ${channel} ${mediaOnly(message) ? "media-only" : ""}`}
            title={`${channelName(message.channel)} · ${timeOf(message.created_at)}`}
          >
            {message.attachments.map((attachment) => (
              <Attachment key={attachment.id} attachment={attachment} />
            ))}
            {message.text && <p class="text">{message.text}</p>}
            {props.reactions.length > 0 && (
              <ul class="reactions" aria-label="Reactions">
                {props.reactions.map((r) => (
                  <li key={`${r.from} ${r.reaction}`} title={`${r.reaction} from ${r.from}`}>
                    {reactionGlyph(r.reaction)}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        {props.actions}
      </div>
      <p class="marks">
        {message.effect && <span class="effect">Sent with {effectName(message.effect)}</span>}
        {message.edited_at && !unsent && <span class="edited">Edited</span>}
        {props.status && <span class={`status ${props.status.failed ? "failed" : ""}`}>{props.status.text}</span>}
      </p>
    </li>
  );
}

/** Photos and videos without text are drawn bare, as phones do. */
const mediaOnly = (message: MessageResource) =>
  !message.text &&
  message.attachments.length > 0 &&
  message.attachments.every((a) => /^(image|video)\//.test(a.mime_type));

const snippet = (text: string | null) => (text && text.length > 40 ? `${text.slice(0, 40)}…` : (text ?? ""));

/** An attachment as phones show it: images and video inline, audio and voice memos as players, other files as chips. */
function Attachment({ attachment }: { attachment: AttachmentResource }) {
  const { mime_type: type, url, filename } = attachment;
  if (type.startsWith("image/")) return <img class="media" src={url} alt={filename} loading="lazy" />;
  if (type.startsWith("video/"))
    return <video class="media" src={url} controls preload="metadata" aria-label={filename} />;
  if (type.startsWith("audio/")) {
    const length = attachment.duration_seconds ? ` ${clockOf(attachment.duration_seconds)}` : "";
    return (
      <figure class={`audio ${attachment.is_voice_memo ? "voice" : ""}`}>
        <figcaption>{attachment.is_voice_memo ? `Voice memo${length}` : `${filename}${length}`}</figcaption>
        <audio src={url} controls preload="none" aria-label={attachment.is_voice_memo ? "Voice memo" : filename} />
      </figure>
    );
  }
  return (
    <a class="file" href={url} target="_blank" rel="noreferrer">
      📎 {filename} <span class="size">{sizeOf(attachment.size_bytes)}</span>
    </a>
  );
}
