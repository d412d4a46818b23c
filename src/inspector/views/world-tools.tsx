import type { ContactTraits, FaultName } from "../../contract/types.js";
import type { MsgctlClient } from "../../client/client.js";
import { dateTimeOf } from "../format.js";
import { refresh, useLive } from "../state.js";

async function run(action: () => Promise<unknown>, after: () => void): Promise<void> {
  try {
    await action();
    after();
    refresh();
  } catch (failure) {
    alert((failure as Error).message);
  }
}

/** A number's faults, switched from its phone's header. */
export function NumberFaultsMenu({ client, handle }: { client: MsgctlClient; handle: string }) {
  const faults = useLive(() => client.simulate.faults(handle), [handle]);
  const f = faults.data;
  const flip = (fault: FaultName, options: { count?: number; off?: boolean } = {}) =>
    void run(() => client.simulate.fault(handle, fault, options), faults.reload);
  const active = f && (f.offline || f.transient_remaining > 0 || f.rate_limited || f.relink_required);
  return (
    <details class="tools">
      <summary aria-label={`Faults of ${handle}`} class={active ? "warn" : ""}>
        {f ? f.status : "…"}
      </summary>
      {f && (
        <div class="menu" role="group" aria-label={`Faults of ${handle}`}>
          <label>
            <input type="checkbox" checked={f.offline} onChange={() => flip(f.offline ? "online" : "offline")} />{" "}
            offline
          </label>
          <label>
            <input
              type="checkbox"
              checked={f.rate_limited}
              onChange={() => flip("rate-limited", { off: f.rate_limited })}
            />{" "}
            WhatsApp rate-limited
            {f.rate_limited_until && <small> until {dateTimeOf(f.rate_limited_until)}</small>}
          </label>
          <label>
            <input
              type="checkbox"
              checked={f.relink_required}
              onChange={() => flip("relink-required", { off: f.relink_required })}
            />{" "}
            WhatsApp needs re-linking
          </label>
          <form
            class="inline"
            onSubmit={(e) => {
              e.preventDefault();
              const count = Number(new FormData(e.currentTarget).get("count"));
              flip("transient", { count });
            }}
          >
            <label>
              transient errors{" "}
              <input
                name="count"
                type="number"
                min={0}
                max={100}
                value={f.transient_remaining}
                size={3}
                aria-label="Transient errors for the next attempts"
              />
            </label>
            <button type="submit">Set</button>
          </form>
        </div>
      )}
    </details>
  );
}

const TRAITS: [keyof ContactTraits, string][] = [
  ["imessage", "on iMessage"],
  ["whatsapp", "on WhatsApp"],
  ["reachable", "reachable"],
  ["read_receipts", "read receipts"],
];

/** A contact's profile (routing, reachability, read receipts), edited from their phone's header. */
export function ContactProfile({ client, handle }: { client: MsgctlClient; handle: string }) {
  const contact = useLive(handle ? () => client.contacts.get(handle) : null, [handle]);
  const c = contact.data;
  const set = (traits: Partial<ContactTraits>) => void run(() => client.contacts.set(handle, traits), contact.reload);
  return (
    <details class="tools">
      <summary aria-label={`Profile of ${handle}`}>
        {c ? `${c.platform}${c.source === "magic" ? " · magic" : ""}` : "…"}
      </summary>
      {c && (
        <div class="menu" role="group" aria-label={`Profile of ${handle}`}>
          {"description" in c && c.description ? <p class="note">{String(c.description)}</p> : null}
          {TRAITS.map(([trait, label]) => (
            <label key={trait}>
              <input type="checkbox" checked={Boolean(c[trait])} onChange={() => set({ [trait]: !c[trait] })} /> {label}
            </label>
          ))}
          <label>
            platform{" "}
            <select
              value={c.platform}
              onChange={(e) => set({ platform: e.currentTarget.value as ContactTraits["platform"] })}
            >
              <option value="ios">iOS</option>
              <option value="android">Android</option>
            </select>
          </label>
        </div>
      )}
    </details>
  );
}
