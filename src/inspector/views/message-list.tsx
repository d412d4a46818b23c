import { useLayoutEffect, useRef } from "preact/hooks";
import type { MessageResource } from "../../contract/types.js";

/** A phone's scrolling list of bubbles, kept at the bottom while new ones arrive unless scrolled up. */
export function MessageList(props: {
  label: string;
  messages: MessageResource[];
  hasOlder: boolean;
  loadOlder(): Promise<void>;
  error: string | null;
  children: preact.ComponentChildren;
}) {
  const list = useRef<HTMLOListElement>(null);
  const pinned = useRef(true);
  useLayoutEffect(() => {
    const element = list.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  }, [props.messages, props.children]);
  return (
    <ol
      class="messages"
      ref={list}
      aria-label={props.label}
      tabIndex={0}
      onScroll={(e) => {
        const element = e.currentTarget;
        pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
      }}
    >
      {props.hasOlder && (
        <li class="older">
          <button type="button" onClick={() => void props.loadOlder()}>
            Load earlier messages
          </button>
        </li>
      )}
      {props.error && (
        <li class="error" role="alert">
          {props.error}
        </li>
      )}
      {props.children}
    </ol>
  );
}

/** The three dots of someone typing, with their handle in a group. */
export function TypingBubble({ from }: { from: string | null }) {
  return (
    <li class="message theirs typing" aria-live="polite">
      {from && <span class="sender">{from}</span>}
      <p class="bubble typing-dots" aria-label="typing">
        <span />
        <span />
        <span />
      </p>
    </li>
  );
}
