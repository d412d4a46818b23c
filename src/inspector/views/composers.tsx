import { useRef, useState } from "preact/hooks";
import type { ChatResource, MessageResource } from "../../contract/types.js";
import type { MsgctlClient } from "../../client/client.js";
import { EFFECT_CHOICES } from "../format.js";
import { refresh } from "../state.js";
import { ErrorAlert, useAction } from "./form-parts.js";

/** What both composers share: a text, files, a send that reports its error. */
function useComposer() {
  const [text, setText] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const { busy, error, setError, run } = useAction();
  const fileInput = useRef<HTMLInputElement>(null);
  const submit = async (send: (attachmentIds: string[] | undefined) => Promise<unknown>, client: MsgctlClient) => {
    if (!text.trim() && files.length === 0) return;
    await run(async () => {
      // A File is a Blob with a name: sent as FormData, which browsers can send.
      const sources = files.map((file) => ({ filename: file.name, data: file }));
      const attachmentIds = files.length > 0 ? (await client.attachments.upload(sources)).map((a) => a.id) : undefined;
      await send(attachmentIds);
      setText("");
      setFiles([]);
      if (fileInput.current) fileInput.current.value = "";
      refresh();
    });
  };
  // An error is about the send that failed: editing starts the next one.
  const edit = (next: string) => {
    setText(next);
    setError(null);
  };
  return { text, setText: edit, files, setFiles, busy, error, fileInput, submit };
}

/** Enter sends, Shift+Enter starts a new line, as in a messaging app. */
const sendOnEnter = (form: () => HTMLFormElement | null) => (e: KeyboardEvent) => {
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    form()?.requestSubmit();
  }
};

function Files({ composer, label }: { composer: ReturnType<typeof useComposer>; label: string }) {
  return (
    <label class="attach" title={label}>
      <svg class="icon-svg" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M21 11.5l-8.6 8.6a5 5 0 0 1-7.1-7.1l8.6-8.6a3.3 3.3 0 0 1 4.7 4.7l-8.6 8.6a1.7 1.7 0 0 1-2.4-2.4l7.9-7.9" />
      </svg>
      <span class="visually-hidden">{label}</span>
      <input
        ref={composer.fileInput}
        type="file"
        multiple
        onChange={(e) => composer.setFiles([...(e.currentTarget.files ?? [])])}
      />
      {composer.files.length > 0 && <span class="count">{composer.files.length}</span>}
    </label>
  );
}

/** The business's composer: the same POST /v1/messages an app makes, into this thread. */
export function BusinessComposer(props: {
  client: MsgctlClient;
  chat: ChatResource;
  whatsapp: boolean;
  replyTo: MessageResource | null;
  onCancelReply(): void;
  typing: boolean;
}) {
  const composer = useComposer();
  const [effect, setEffect] = useState("");
  const form = useRef<HTMLFormElement>(null);
  const send = () =>
    composer.submit(async (attachmentIds) => {
      await props.client.messages.send({
        conversation_id: props.chat.id,
        text: composer.text.trim() || undefined,
        attachment_ids: attachmentIds,
        reply_to: props.replyTo?.id,
        effect: effect || undefined,
      });
      props.onCancelReply();
    }, props.client);
  return (
    <form class="composer" ref={form} onSubmit={(e) => (e.preventDefault(), void send())}>
      {props.replyTo && (
        <p class="replying">
          Replying to “{props.replyTo.text ?? "an attachment"}”{" "}
          <button type="button" class="link" onClick={props.onCancelReply}>
            cancel
          </button>
        </p>
      )}
      <div class="row">
        <Files composer={composer} label="Attach files to send" />
        <textarea
          rows={1}
          value={composer.text}
          onInput={(e) => composer.setText(e.currentTarget.value)}
          onKeyDown={sendOnEnter(() => form.current)}
          placeholder={props.whatsapp ? "WhatsApp message" : "Message as the business"}
          aria-label="Message to send as the business"
        />
        {!props.whatsapp && (
          <select value={effect} onChange={(e) => setEffect(e.currentTarget.value)} aria-label="iMessage effect">
            <option value="">No effect</option>
            {EFFECT_CHOICES.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        )}
        <button type="submit" disabled={composer.busy}>
          Send
        </button>
      </div>
      <div class="row options">
        <button
          type="button"
          class="secondary"
          aria-pressed={props.typing}
          onClick={() => void chatAction(() => props.client.chats.typing(props.chat.id, !props.typing))}
        >
          {props.typing ? "Stop typing" : "Type…"}
        </button>
        <button
          type="button"
          class="secondary"
          onClick={() => void chatAction(() => props.client.chats.read(props.chat.id))}
        >
          Mark thread read
        </button>
      </div>
      <ErrorAlert error={composer.error} />
    </form>
  );
}

/** The business's typing and read receipts (POST /v1/chats/:id/typing and /read): not on SMS threads. */
async function chatAction(action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
    refresh();
  } catch (failure) {
    alert((failure as Error).message);
  }
}

/** The contact's composer: replies as the contact (text, files, voice memos), and their typing bubble. */
export function ContactComposer(props: {
  client: MsgctlClient;
  chat: ChatResource;
  from: string;
  whatsapp: boolean;
  typing: boolean;
}) {
  const composer = useComposer();
  const [voiceMemo, setVoiceMemo] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const { client, chat, from } = props;
  const send = () =>
    composer.submit(
      (attachmentIds) =>
        client.simulate.inbound({
          from,
          // A group message goes to the group; a one-to-one one to the number.
          ...(chat.is_group ? { group: chat.id } : { to: chat.from_handle }),
          text: composer.text.trim() || undefined,
          attachment_ids: attachmentIds,
          voice_memo: voiceMemo || undefined,
          channel: props.whatsapp ? "whatsapp" : undefined,
        }),
      client,
    );
  const toggleTyping = async () => {
    try {
      await client.simulate.typing({
        from,
        ...(chat.is_group ? { conversation_id: chat.id } : { to: chat.from_handle }),
        typing: !props.typing,
      });
    } catch (failure) {
      alert((failure as Error).message);
    }
  };
  return (
    <form class="composer" ref={form} onSubmit={(e) => (e.preventDefault(), void send())}>
      <div class="row">
        <Files composer={composer} label="Attach files to send as the contact" />
        <textarea
          rows={1}
          value={composer.text}
          onInput={(e) => composer.setText(e.currentTarget.value)}
          onKeyDown={sendOnEnter(() => form.current)}
          placeholder={`Reply as ${from}`}
          aria-label="Reply as the contact"
        />
        <button type="submit" disabled={composer.busy}>
          Send
        </button>
      </div>
      <div class="row options">
        <label>
          <input type="checkbox" checked={voiceMemo} onChange={(e) => setVoiceMemo(e.currentTarget.checked)} /> voice
          memo
        </label>
        <button type="button" class="secondary" aria-pressed={props.typing} onClick={() => void toggleTyping()}>
          {props.typing ? "Stop typing" : "Type…"}
        </button>
      </div>
      <ErrorAlert error={composer.error} />
    </form>
  );
}
