import { useState } from "preact/hooks";
import type { MsgctlClient } from "../../client/client.js";
import { dateTimeOf } from "../format.js";
import { restarted, useLive } from "../state.js";
import { useAction } from "./form-parts.js";

/** The rule a snapshot's name follows, as the sandbox checks it (said before a request is made). */
const NAME = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The header's snapshots menu: save the whole sandbox under a name, and restore or delete a saved
 * one. A restore replaces every account's state, so it asks first; afterwards the page starts
 * over, as it does when any client restored (the activity stream's `sandbox.restored`).
 */
export function SnapshotsMenu({ client }: { client: MsgctlClient }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const { busy, error, setError, run } = useAction();
  const [done, setDone] = useState<string | null>(null);
  // Read only while the menu is open; then again on every change of the sandbox.
  const list = useLive(open ? () => client.snapshots.list() : null, [client, open]);

  const act = (action: () => Promise<string>) => {
    setDone(null);
    return run(async () => {
      setDone(await action());
      list.reload();
    });
  };
  const save = (snapshot: string) =>
    act(async () => {
      await client.snapshots.save(snapshot);
      setName("");
      return `Saved ${snapshot}`;
    });
  const restore = (snapshot: string) => {
    if (!confirm(`Restore ${snapshot}? The whole sandbox, every account included, goes back to it.`)) return;
    void act(async () => {
      await client.snapshots.restore(snapshot);
      await restarted();
      return `Restored ${snapshot}`;
    });
  };
  const remove = (snapshot: string) =>
    void act(async () => {
      await client.snapshots.delete(snapshot);
      return `Deleted ${snapshot}`;
    });

  return (
    <details class="tools snapshots" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Snapshots</summary>
      {open && (
        <div class="menu" role="group" aria-label="Snapshots">
          <form
            class="inline"
            onSubmit={(e) => {
              e.preventDefault();
              const snapshot = name.trim();
              if (!NAME.test(snapshot)) setError("A name is 1 to 64 letters, digits, dots, dashes or underscores");
              else void save(snapshot);
            }}
          >
            <input
              value={name}
              onInput={(e) => {
                setName(e.currentTarget.value);
                setError(null);
              }}
              placeholder="checkout-ready"
              aria-label="Snapshot name"
              maxLength={64}
              size={14}
            />
            <button type="submit" disabled={busy || !name.trim()}>
              Save
            </button>
          </form>
          {list.data?.length === 0 && <p class="empty">No snapshots yet.</p>}
          {list.data && list.data.length > 0 && (
            <ul class="snapshot-list">
              {list.data.map((s) => (
                <li key={s.name} data-snapshot={s.name}>
                  <span class="snapshot-name">{s.name}</span>
                  <small title={`saved ${dateTimeOf(s.saved_at)}`}>
                    clock {dateTimeOf(s.clock.now)}
                    {s.problem && <span class="error"> {s.problem}</span>}
                  </small>
                  <span class="snapshot-actions">
                    <button
                      type="button"
                      disabled={busy || s.problem !== null}
                      onClick={() => restore(s.name)}
                      aria-label={`Restore ${s.name}`}
                    >
                      Restore
                    </button>
                    <button
                      type="button"
                      disabled={busy}
                      onClick={() => remove(s.name)}
                      aria-label={`Delete ${s.name}`}
                    >
                      Delete
                    </button>
                  </span>
                </li>
              ))}
            </ul>
          )}
          {done && (
            <p class="note" role="status">
              {done}
            </p>
          )}
          {(error ?? list.error) && (
            <p class="error" role="alert">
              {error ?? list.error}
            </p>
          )}
        </div>
      )}
    </details>
  );
}
