import { useEffect, useMemo, useState } from "preact/hooks";
import type { ChatResource, MessageResource, ReactionView } from "../../contract/types.js";
import type { MsgctlClient } from "../../client/client.js";
import type { Page } from "../../contract/types.js";
import { channelName, timeOf } from "../format.js";
import { refresh, sandboxNow, useInspector, useLive } from "../state.js";
import { Bubble, outboundStatus } from "./bubble.js";
import { BusinessComposer, ContactComposer } from "./composers.js";
import { MessageList, TypingBubble } from "./message-list.js";
import { ContactMessageActions } from "./message-actions.js";
import { ContactProfile, NumberFaultsMenu } from "./world-tools.js";

const PAGE = 50;

/**
 * A conversation's newest page, and the pages before it down to `floor` (a `created_at`,
 * exclusive) when earlier pages are shown: each `before` cursor is the oldest message so far.
 */
async function newestMessages(
  client: MsgctlClient,
  conversationId: string,
  floor: string | null,
): Promise<Page<MessageResource>> {
  let page = await client.messages.list({ conversationId, limit: PAGE });
  const data = [...page.data];
  let oldest = data.at(-1);
  while (floor && page.hasMore && oldest && oldest.created_at > floor) {
    page = await client.messages.list({ conversationId, limit: PAGE, before: oldest.created_at });
    data.push(...page.data);
    oldest = data.at(-1);
  }
  return { data, hasMore: page.hasMore };
}

/** The newest `created_at` of some messages, or null when there are none. */
const newestOf = (messages: MessageResource[]): string | null =>
  messages.reduce<string | null>(
    (newest, m) => (newest === null || m.created_at > newest ? m.created_at : newest),
    null,
  );

/** Who sent a message, as a handle: the account's number for outbound, else the contact (or group member). */
function senderOf(message: MessageResource, chat: ChatResource): string {
  if (message.direction === "outbound") return chat.from_handle;
  const sender = message.metadata?.sender_handle;
  return typeof sender === "string" ? sender : (chat.remote_handle ?? "");
}

/** Whether an outbound message reached the contact's phone (delivered, read, or unsent after it had). */
const onContactPhone = (message: MessageResource) => message.direction === "inbound" || message.delivered_at !== null;

/** A thread as both phones show it: the business's app, and the contact's phone beside it (or behind a toggle when narrow). */
export function ThreadView({ client, chat }: { client: MsgctlClient; chat: ChatResource }) {
  const { typing } = useInspector();
  const now = sandboxNow(useInspector());
  const [older, setOlder] = useState<MessageResource[]>([]);
  const [olderDone, setOlderDone] = useState(false);
  // Down to the newest of the earlier pages: messages that arrive after they were loaded push
  // the newest page up, and what it no longer holds would be missing between the two.
  const newest = useLive(() => newestMessages(client, chat.id, newestOf(older)), [chat.id]);
  const reactions = useLive(() => client.simulate.reactions(chat.id), [chat.id]);
  // What the contacts' phones show of the business: its typing bubble, when it last read the thread.
  const remote = useLive(() => client.simulate.remoteView(chat.id), [chat.id]);
  const [side, setSide] = useState<"business" | "contact">("business");
  const [replyTo, setReplyTo] = useState<MessageResource | null>(null);
  const [highlight, setHighlight] = useState<string | null>(null);
  // Everyone in the thread but the account's number; a group's members may include its other numbers.
  const members = chat.is_group ? chat.participants : [chat.remote_handle ?? ""];
  const [asMember, setAsMember] = useState(members[0] ?? "");

  useEffect(() => {
    setOlder([]);
    setOlderDone(false);
    setReplyTo(null);
    setAsMember(members[0] ?? "");
  }, [chat.id]);

  // Oldest first, each once: the live newest page wins over an older copy.
  const messages = useMemo(() => {
    const byId = new Map<string, MessageResource>();
    for (const message of [...older, ...(newest.data?.data ?? [])]) byId.set(message.id, message);
    return [...byId.values()].sort((a, b) => a.created_at.localeCompare(b.created_at));
  }, [older, newest.data]);
  const byId = useMemo(() => new Map(messages.map((m) => [m.id, m])), [messages]);
  const reactionsOf = useMemo(() => {
    const map = new Map<string, ReactionView[]>();
    for (const r of reactions.data ?? []) map.set(r.message_id, [...(map.get(r.message_id) ?? []), r]);
    return map;
  }, [reactions.data]);
  const businessTyping = Boolean(
    remote.data?.typing && (!remote.data.typing_expires_at || Date.parse(remote.data.typing_expires_at) > now),
  );
  const hasOlder = !olderDone && (older.length > 0 || (newest.data?.hasMore ?? false));
  const whatsapp = messages.some((m) => m.channel === "whatsapp");
  const typingNow = typing.get(chat.id);

  const loadOlder = async () => {
    const oldest = messages[0];
    if (!oldest) return;
    const page = await client.messages.list({ conversationId: chat.id, limit: PAGE, before: oldest.created_at });
    setOlder((current) => [...page.data, ...current]);
    if (!page.hasMore) setOlderDone(true);
  };
  const showReply = (id: string) => {
    setHighlight(id);
    document.getElementById(`m-${id}`)?.scrollIntoView({ block: "center" });
  };

  const bubblesFor = (phone: "business" | "contact") =>
    messages
      .filter((m) => phone === "business" || onContactPhone(m))
      .map((m) => {
        const sender = senderOf(m, chat);
        const mine = phone === "business" ? m.direction === "outbound" : sender === asMember;
        return (
          <Bubble
            key={m.id}
            message={m}
            mine={mine}
            senderLabel={chat.is_group && !mine ? sender : null}
            reactions={reactionsOf.get(m.id) ?? []}
            repliedTo={m.reply_to ? byId.get(m.reply_to) : undefined}
            status={
              phone === "business"
                ? m.direction === "outbound"
                  ? outboundStatus(m)
                  : null
                : mine
                  ? contactSideStatus(m, remote.data?.last_read_at ?? null)
                  : null
            }
            highlighted={highlight === m.id}
            onShowReply={showReply}
            actions={
              phone === "business" ? (
                <button
                  type="button"
                  class="icon"
                  aria-label="Reply to this message"
                  title="Reply"
                  onClick={() => setReplyTo(m)}
                >
                  ↩
                </button>
              ) : (
                <ContactMessageActions client={client} message={m} contact={asMember} mine={mine} />
              )
            }
          />
        );
      });

  return (
    <div class="thread" data-side={side}>
      <div class="side-toggle" role="group" aria-label="Which phone to show">
        <button type="button" aria-pressed={side === "business"} onClick={() => setSide("business")}>
          Business
        </button>
        <button type="button" aria-pressed={side === "contact"} onClick={() => setSide("contact")}>
          Contact
        </button>
      </div>
      <section class="phone business" aria-label={`The business's phone, ${chat.from_handle}`}>
        <header class="phone-head">
          <div>
            <strong>{chat.is_group ? (chat.title ?? "Group") : chat.remote_handle}</strong>
            <span class="sub">
              {chat.is_group ? members.join(", ") : `from ${chat.from_handle}${whatsapp ? " · WhatsApp" : ""}`}
            </span>
          </div>
          <NumberFaultsMenu client={client} handle={chat.from_handle} />
        </header>
        <MessageList
          label="Messages, as the business sees them"
          messages={messages}
          hasOlder={hasOlder}
          loadOlder={loadOlder}
          error={newest.error}
        >
          {bubblesFor("business")}
          {typingNow && <TypingBubble from={chat.is_group ? typingNow.from : null} />}
        </MessageList>
        <BusinessComposer
          client={client}
          chat={chat}
          whatsapp={whatsapp}
          replyTo={replyTo}
          onCancelReply={() => setReplyTo(null)}
          typing={businessTyping}
        />
      </section>
      <section class="phone contact" aria-label={`The contact's phone, ${asMember}`}>
        <header class="phone-head">
          <div>
            <strong>{chat.is_group ? (chat.title ?? "Group") : chat.from_handle}</strong>
            <span class="sub">
              {chat.is_group ? (
                <label>
                  as{" "}
                  <select value={asMember} onChange={(e) => setAsMember(e.currentTarget.value)}>
                    {members.map((handle) => (
                      <option key={handle}>{handle}</option>
                    ))}
                  </select>
                </label>
              ) : (
                `${asMember}'s phone · ${channelName(messages.at(-1)?.channel ?? null)}`
              )}
            </span>
          </div>
          {chat.is_group ? (
            <RenameAsMember client={client} chat={chat} from={asMember} />
          ) : (
            <ContactProfile client={client} handle={asMember} />
          )}
        </header>
        <MessageList
          label="Messages, as the contact's phone shows them"
          messages={messages}
          hasOlder={hasOlder}
          loadOlder={loadOlder}
          error={null}
        >
          {bubblesFor("contact")}
          {businessTyping && <TypingBubble from={chat.is_group ? chat.from_handle : null} />}
        </MessageList>
        <ContactComposer
          client={client}
          chat={chat}
          from={asMember}
          whatsapp={whatsapp}
          typing={typingNow?.from === asMember}
        />
      </section>
    </div>
  );
}

/** Under the contact's own message on their phone: read once the business marked the thread read after it. */
function contactSideStatus(message: MessageResource, lastReadAt: string | null): { text: string; failed: boolean } {
  return lastReadAt && lastReadAt >= message.created_at
    ? { text: `Read ${timeOf(lastReadAt)}`, failed: false }
    : { text: "Delivered", failed: false };
}

/** A member renames the group from their phone (simulate rename). */
function RenameAsMember({ client, chat, from }: { client: MsgctlClient; chat: ChatResource; from: string }) {
  return (
    <button
      type="button"
      class="secondary"
      onClick={() => {
        const title = prompt(`New title of the group, as ${from} (empty removes it):`, chat.title ?? "");
        if (title === null) return;
        client.simulate
          .rename({ conversation_id: chat.id, from, title: title.trim() || null })
          .then(refresh, (failure: Error) => alert(failure.message));
      }}
    >
      Rename…
    </button>
  );
}
