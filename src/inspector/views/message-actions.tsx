import type { MessageResource } from "../../contract/types.js";
import type { MsgctlClient } from "../../client/client.js";
import { REACTION_CHOICES, reactionGlyph } from "../format.js";
import { refresh } from "../state.js";

/** Runs one action of the other side; its error is shown to the person who clicked. */
async function act(action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
    refresh();
  } catch (failure) {
    alert((failure as Error).message);
  }
}

/**
 * What the contact's phone (and the network) can do to a message: react to, or move forward
 * or fail, the business's messages; edit the contact's own.
 */
export function ContactMessageActions({
  client,
  message,
  contact,
  mine,
}: {
  client: MsgctlClient;
  message: MessageResource;
  contact: string;
  mine: boolean;
}) {
  const outbound = message.direction === "outbound";
  // Only the moves the message's status allows (the control API answers the others 409).
  const { status } = message;
  if (!outbound && !mine) return null;
  const close = (e: Event) => (e.currentTarget as HTMLElement).closest("details")?.removeAttribute("open");
  return (
    <details class="actions" onClick={(e) => (e.target as HTMLElement).tagName === "BUTTON" && close(e)}>
      <summary aria-label={`Actions on “${message.text ?? "attachment"}”`} title="Act as the contact">
        ⋯
      </summary>
      <div class="menu" role="group" aria-label="Act as the contact">
        {outbound ? (
          <>
            <div class="reaction-choices" role="group" aria-label="React as the contact">
              {REACTION_CHOICES.map((reaction) => (
                <button
                  key={reaction}
                  type="button"
                  aria-label={`React ${reaction}`}
                  title={reaction}
                  onClick={() =>
                    void act(() => client.simulate.reaction({ message_id: message.id, from: contact, reaction }))
                  }
                >
                  {reactionGlyph(reaction)}
                </button>
              ))}
            </div>
            {status === "sent" && (
              <button type="button" onClick={() => void act(() => client.simulate.delivered(message.id))}>
                Mark delivered
              </button>
            )}
            {(status === "sent" || status === "delivered") && (
              <button type="button" onClick={() => void act(() => client.simulate.read(message.id))}>
                Mark read
              </button>
            )}
            {(status === "queued" || status === "sent") && (
              <button
                type="button"
                onClick={() => {
                  const error = prompt("Fail the message with this error:", "Simulated failure (inspector)");
                  if (error !== null) void act(() => client.simulate.fail(message.id, error || undefined));
                }}
              >
                Fail…
              </button>
            )}
          </>
        ) : (
          <button
            type="button"
            onClick={() => {
              const text = prompt("New text of the message:", message.text ?? "");
              if (text) void act(() => client.simulate.edit({ message_id: message.id, text }));
            }}
          >
            Edit…
          </button>
        )}
      </div>
    </details>
  );
}
