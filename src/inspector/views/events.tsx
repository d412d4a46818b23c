import { useState } from "preact/hooks";
import type { EventView } from "../../contract/types.js";
import { dateTimeOf } from "../format.js";
import { useInspector } from "../state.js";

/** Events: every event of the account, live, newest first, each with its payload. */
export function EventsView() {
  const { events } = useInspector();
  const [filter, setFilter] = useState("");
  const types = [...new Set(events.map((e) => e.type))].sort();
  const shown = filter ? events.filter((e) => e.type === filter) : events;
  return (
    <section class="events" aria-label="Events">
      <div class="toolbar">
        <label>
          Type{" "}
          <select value={filter} onChange={(e) => setFilter(e.currentTarget.value)}>
            <option value="">all</option>
            {types.map((type) => (
              <option key={type}>{type}</option>
            ))}
          </select>
        </label>
        <span class="count" aria-live="polite">
          {shown.length} shown
        </span>
      </div>
      {shown.length === 0 ? (
        <p class="empty">No events yet: they appear here the moment they are emitted.</p>
      ) : (
        <ol class="event-list">
          {shown.map((event) => (
            <EventRow key={event.id} event={event} />
          ))}
        </ol>
      )}
    </section>
  );
}

function EventRow({ event }: { event: EventView }) {
  return (
    <li data-event-type={event.type} data-seq={event.seq}>
      <details>
        <summary>
          <span class="seq">#{event.seq}</span> <span class="type">{event.type}</span>{" "}
          <time dateTime={event.created_at}>{dateTimeOf(event.created_at)}</time>
        </summary>
        <pre class="payload">{JSON.stringify(event.payload, null, 2)}</pre>
        <p class="note">
          Event id <code>{event.id}</code> (the <code>X-Msgctl-Event-Id</code> of its deliveries)
        </p>
      </details>
    </li>
  );
}
