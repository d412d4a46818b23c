import { useState } from "preact/hooks";
import type { ChatResource, NumberResource } from "../../contract/types.js";
import type { MsgctlClient } from "../../client/client.js";
import type { Page } from "../../contract/types.js";
import { channelName, timeOf } from "../format.js";
import { go, hrefOf } from "../route.js";
import { refresh, useInspector, useLive } from "../state.js";
import { ThreadView } from "./thread.js";

/** Phones: the account's numbers with their threads, and the open thread as both phones show it. */
export function PhonesView({ conversationId }: { conversationId: string | null }) {
  const { client, typing } = useInspector();
  const numbers = useLive(client ? () => client.numbers.list() : null, [client]);
  // Pages of threads shown: "More threads" adds one, and each reload loads them all again.
  const [chatPages, setChatPages] = useState(1);
  const chats = useLive(client ? () => threadPages(client, chatPages) : null, [client]);
  // By id, so a thread older than the listed ones opens too.
  const open = useLive(client && conversationId ? () => client.chats.get(conversationId) : null, [
    client,
    conversationId,
  ]);
  if (!client) return null;

  return (
    <div class={`phones-view ${conversationId ? "has-thread" : ""}`}>
      <aside class="threads" aria-label="Numbers and threads">
        {(numbers.data ?? []).map((number) => (
          <section key={number.handle} class="number">
            <h2>
              {number.label} <span class="handle">{number.handle}</span>
              <span class={`status ${number.status}`}>{number.status}</span>
            </h2>
            <p class="channels">{number.channels.map(channelName).join(" · ")}</p>
            <ul>
              {(chats.data?.data ?? [])
                .filter((chat) => chat.from_handle === number.handle)
                .map((chat) => (
                  <li key={chat.id}>
                    <a
                      href={hrefOf("phones", chat.id)}
                      aria-current={chat.id === conversationId ? "page" : undefined}
                      data-conversation-id={chat.id}
                    >
                      <span class="who">{chat.is_group ? (chat.title ?? "Group") : chat.remote_handle}</span>
                      <span class="when">{timeOf(chat.last_message_at)}</span>
                      {typing.has(chat.id) && <span class="typing-mark">typing…</span>}
                    </a>
                  </li>
                ))}
            </ul>
          </section>
        ))}
        {chats.data?.hasMore && (
          <button
            type="button"
            class="secondary more"
            onClick={() => {
              setChatPages((n) => n + 1);
              chats.reload();
            }}
          >
            More threads
          </button>
        )}
        {chats.error && <p class="error">{chats.error}</p>}
        <NewThread client={client} numbers={numbers.data ?? []} />
        <NewGroup client={client} numbers={(numbers.data ?? []).filter((n) => n.channels.includes("imessage"))} />
      </aside>
      <div class="thread-pane">
        {conversationId && (
          <a class="back" href={hrefOf("phones")}>
            ← Threads
          </a>
        )}
        {open.data ? (
          <ThreadView client={client} chat={open.data} />
        ) : (
          <Empty loading={Boolean(conversationId) && !open.error} />
        )}
      </div>
    </div>
  );
}

const THREADS_PAGE = 100;

/** The account's first `pages` pages of threads, newest activity first. */
async function threadPages(client: MsgctlClient, pages: number): Promise<Page<ChatResource>> {
  const data: ChatResource[] = [];
  let hasMore = false;
  for (let n = 0; n < pages; n++) {
    const page = await client.chats.list({ limit: THREADS_PAGE, before: data.at(-1)?.last_message_at });
    data.push(...page.data);
    hasMore = page.hasMore;
    if (!hasMore) break;
  }
  return { data, hasMore: hasMore };
}

function Empty({ loading }: { loading: boolean }) {
  return (
    <p class="empty">
      {loading
        ? "Loading the thread…"
        : "Pick a thread, or start one: the business sends a first message, or a contact writes in."}
    </p>
  );
}

/** Starts an iMessage group as the business (POST /v1/chats): members, an opening message, a title. */
function NewGroup({ client, numbers }: { client: MsgctlClient; numbers: NumberResource[] }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <details class="new-thread">
      <summary>New group</summary>
      <form
        onInput={() => setError(null)}
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const data = new FormData(form);
          const title = String(data.get("title")).trim();
          setError(null);
          client.chats
            .create({
              from_handle: String(data.get("number")),
              addresses: String(data.get("members"))
                .split(",")
                .map((m) => m.trim())
                .filter(Boolean),
              message: String(data.get("message")).trim(),
              ...(title ? { title } : {}),
            })
            .then(
              ({ chat }) => {
                form.reset();
                refresh();
                go("phones", chat.id);
              },
              (failure: Error) => setError(failure.message),
            );
        }}
      >
        <label>
          Number{" "}
          <select name="number">
            {numbers.map((n) => (
              <option key={n.handle} value={n.handle}>
                {n.label} {n.handle}
              </option>
            ))}
          </select>
        </label>
        <label>
          Members <input name="members" required placeholder="+14155550191, +14155550193" autoComplete="off" />
        </label>
        <label>
          Title <input name="title" placeholder="Weekend plans" maxLength={100} />
        </label>
        <label>
          Opening message <input name="message" required placeholder="Hi all" />
        </label>
        <button type="submit">Start the group</button>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </form>
    </details>
  );
}

/** Starts a thread: the business sends to a contact (POST /v1/messages), or a contact writes to a number. */
function NewThread({ client, numbers }: { client: MsgctlClient; numbers: NumberResource[] }) {
  const [error, setError] = useState<string | null>(null);
  const start = async (form: HTMLFormElement, who: "business" | "contact") => {
    const data = new FormData(form);
    const number = String(data.get("number"));
    const contact = String(data.get("contact")).trim();
    const text = String(data.get("text")).trim();
    const whatsapp =
      data.get("whatsapp") === "on" || numbers.find((n) => n.handle === number)?.channels.join() === "whatsapp";
    setError(null);
    try {
      const message =
        who === "business"
          ? (
              await client.messages.send({
                from_handle: number,
                to: contact,
                text,
                channel: whatsapp ? "whatsapp" : undefined,
              })
            ).message
          : await client.simulate.inbound({
              from: contact,
              to: number,
              text,
              channel: whatsapp ? "whatsapp" : undefined,
            });
      form.reset();
      refresh();
      go("phones", message.conversation_id);
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return (
    <details class="new-thread">
      <summary>New conversation</summary>
      <form
        onInput={() => setError(null)}
        onSubmit={(e) => {
          e.preventDefault();
          const submitter = (e as SubmitEvent).submitter as HTMLButtonElement | null;
          void start(e.currentTarget, submitter?.value === "contact" ? "contact" : "business");
        }}
      >
        <label>
          Number{" "}
          <select name="number">
            {numbers.map((n) => (
              <option key={n.handle} value={n.handle}>
                {n.label} {n.handle}
              </option>
            ))}
          </select>
        </label>
        <label>
          Contact <input name="contact" required placeholder="+14155550191" autoComplete="off" />
        </label>
        <label>
          Text <input name="text" required placeholder="Hello" />
        </label>
        <label>
          <input type="checkbox" name="whatsapp" /> over WhatsApp
        </label>
        <div class="row">
          <button type="submit" name="who" value="business">
            Business sends
          </button>
          <button type="submit" name="who" value="contact" class="secondary">
            Contact writes
          </button>
        </div>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </form>
    </details>
  );
}
