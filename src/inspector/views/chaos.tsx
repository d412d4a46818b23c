import { useState } from "preact/hooks";
import { CHAOS_KIND_WORDS, chaosWorkOf } from "../../client/chaos.js";
import type { MsgctlClient } from "../../client/client.js";
import type { ChaosKind, ChaosLogEntry, ChaosProfileName, ChaosStatus } from "../../contract/types.js";
import { dateTimeOf } from "../format.js";
import { hrefOf } from "../route.js";
import { refresh, useInspector, useLive } from "../state.js";
import { ErrorAlert, TextField, useAction } from "./form-parts.js";

/** The profiles, gentlest first (the contract's list; the page imports no contract code). */
const PROFILES: ChaosProfileName[] = ["mild", "rough"];
/** The newest decisions the page lists. */
const LOG_SHOWN = 100;

const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

/** The chaos in force, following the sandbox live (null until read). */
function useChaos(client: MsgctlClient | null) {
  return useLive(client ? () => client.chaos.status() : null, [client]);
}

/** In the header while chaos is on: its seed and profile, a link to the Chaos view. */
export function ChaosBadge() {
  const { client } = useInspector();
  const chaos = useChaos(client).data;
  if (!chaos?.enabled) return null;
  return (
    <a class="chaos-on" href={hrefOf("chaos")} title="Seeded chaos is on: see what it decided">
      chaos {JSON.stringify(chaos.seed)} · {chaos.profile}
    </a>
  );
}

/** Seeded chaos: switch it on or off, its rates, and the account's newest decisions. */
export function ChaosView() {
  const { client } = useInspector();
  const chaos = useChaos(client);
  const log = useLive(client ? () => client.chaos.log({ order: "desc", limit: LOG_SHOWN }) : null, [client]);
  if (!client) return null;
  return (
    <div class="chaos-view">
      <section class="chaos-status" aria-label="Seeded chaos">
        <h2>Seeded chaos</h2>
        <p class="note">
          Deliveries sent twice, swapped or held back, sends that fail, numbers offline, receipts lost: each decision
          drawn from the seed and the work it concerns, so the same seed over the same calls does the same again.
        </p>
        {chaos.error && <p class="error">{chaos.error}</p>}
        {chaos.data && <StatusAndSwitch client={client} status={chaos.data} onDone={chaos.reload} />}
        {chaos.data?.rates && <Rates rates={chaos.data.rates} />}
      </section>
      <section class="chaos-log" aria-label="Chaos log">
        <h2>What it decided{log.data?.hasMore ? ` (the newest ${LOG_SHOWN})` : ""}</h2>
        {log.error && <p class="error">{log.error}</p>}
        {log.data?.data.length === 0 && <p class="empty">Nothing yet for this account.</p>}
        <ol>
          {(log.data?.data ?? []).map((entry) => (
            <LogEntry key={entry.id} entry={entry} />
          ))}
        </ol>
      </section>
    </div>
  );
}

function StatusAndSwitch({ client, status, onDone }: { client: MsgctlClient; status: ChaosStatus; onDone(): void }) {
  const [seed, setSeed] = useState("");
  const [profile, setProfile] = useState<ChaosProfileName>("mild");
  const { busy, error, run } = useAction();
  const act = (change: () => Promise<unknown>) =>
    run(async () => {
      await change();
      onDone();
      refresh();
    });
  // A whole number written plainly is a number seed, as on the command line (42 and "42" decide alike).
  const seedValue = /^-?[1-9]\d{0,14}$|^0$/.test(seed.trim()) ? Number(seed.trim()) : seed.trim();
  return (
    <>
      <p data-testid="chaos-state">
        {status.enabled ? (
          <>
            <strong>On</strong>: seed <code>{JSON.stringify(status.seed)}</code>, profile{" "}
            <strong>{status.profile}</strong>
          </>
        ) : (
          <>
            <strong>Off</strong>: deliveries, sends and receipts go as they should.
          </>
        )}
      </p>
      <form
        class="inline chaos-switch"
        onSubmit={(e) => {
          e.preventDefault();
          void act(() => client.chaos.on({ seed: seedValue, profile }));
        }}
      >
        <TextField label="Seed" value={seed} onValue={setSeed} placeholder="42" size={12} maxLength={200} required />
        <label>
          Profile{" "}
          <select value={profile} onChange={(e) => setProfile(e.currentTarget.value as ChaosProfileName)}>
            {PROFILES.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy || !seed.trim()}>
          {status.enabled ? "Switch to this seed" : "Switch on"}
        </button>
        {status.enabled && (
          <button type="button" class="secondary" disabled={busy} onClick={() => void act(() => client.chaos.off())}>
            Switch off
          </button>
        )}
      </form>
      <ErrorAlert error={error} />
    </>
  );
}

function Rates({ rates }: { rates: Record<ChaosKind, number> }) {
  return (
    <table class="chaos-rates">
      <thead>
        <tr>
          <th>kind</th>
          <th>rate</th>
          <th>what</th>
        </tr>
      </thead>
      <tbody>
        {(Object.keys(CHAOS_KIND_WORDS) as ChaosKind[]).map((kind) => (
          <tr key={kind} data-kind={kind}>
            <td>{kind}</td>
            <td class="rate">{percent(rates[kind])}</td>
            <td>{CHAOS_KIND_WORDS[kind]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function LogEntry({ entry }: { entry: ChaosLogEntry }) {
  const work = chaosWorkOf(entry);
  return (
    <li data-kind={entry.kind} data-chaos-id={entry.id}>
      <span class="badge chaos">{entry.kind}</span>{" "}
      {entry.delivery_id ? <a href={hrefOf("webhooks", entry.delivery_id)}>{work}</a> : <span>{work}</span>}
      {entry.delay_ms !== null && <span class="by"> by {entry.delay_ms} ms</span>}{" "}
      <time dateTime={entry.at}>{dateTimeOf(entry.at)}</time>
    </li>
  );
}
