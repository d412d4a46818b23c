import { useState } from "preact/hooks";
import { start, switchAccount, useInspector } from "../state.js";
import { hrefOf, useRoute, type ViewName } from "../route.js";
import { ChaosBadge, ChaosView } from "./chaos.js";
import { ClockBar } from "./clock.js";
import { EventsView } from "./events.js";
import { OtpView } from "./otp.js";
import { PhonesView } from "./phones.js";
import { SnapshotsMenu } from "./snapshots.js";
import { WebhooksView } from "./webhooks.js";

/** The switcher's last choice: paste the key of an account whose key the sandbox no longer shows. */
const ANOTHER_KEY = "\u0000another-key";

const TABS: [ViewName, string][] = [
  ["phones", "Phones"],
  ["events", "Events"],
  ["webhooks", "Webhooks"],
  ["otp", "OTP"],
  ["chaos", "Chaos"],
];

/** The page: a header that is always there (accounts, clock, views), and the view shown. */
export function App() {
  const inspector = useInspector();
  const route = useRoute();
  if (inspector.problem) return <KeyForm problem={inspector.problem} />;
  if (!inspector.client || !inspector.account) return <p class="loading">Connecting to the sandbox…</p>;
  return (
    <div class="app">
      <header class="top">
        <h1 class="brand">msgctl</h1>
        <label class="account">
          <span class="label">Account</span>
          <select
            value={inspector.account.name}
            onChange={(e) => {
              const choice = e.currentTarget.value;
              if (choice === ANOTHER_KEY) {
                e.currentTarget.value = inspector.account?.name ?? "";
                const key = prompt("API key (sk_…) of the account to show:");
                // A key that does not work leaves the account shown as it was.
                if (key?.trim()) void start(key.trim(), true).then((problem) => problem && alert(problem));
                return;
              }
              const next = inspector.accounts.find((a) => a.name === choice);
              if (next) void switchAccount(next);
            }}
          >
            {inspector.accounts.map((a) => (
              <option key={a.name} value={a.name} disabled={!a.api_key}>
                {a.api_key ? a.name : `${a.name} (key needed)`}
              </option>
            ))}
            <option value={ANOTHER_KEY}>Another key…</option>
          </select>
        </label>
        <ClockBar />
        <ChaosBadge />
        <SnapshotsMenu client={inspector.client} />
        <span
          class={`live ${inspector.connected ? "on" : "off"}`}
          role="status"
          title={inspector.connected ? "Updating live" : "Reconnecting to the sandbox"}
        >
          {inspector.connected ? "live" : "offline"}
        </span>
      </header>
      <nav class="tabs" aria-label="Views">
        {TABS.map(([view, label]) => (
          <a key={view} href={hrefOf(view)} aria-current={route.view === view ? "page" : undefined}>
            {label}
          </a>
        ))}
      </nav>
      <main>
        {route.view === "phones" && <PhonesView conversationId={route.id} />}
        {route.view === "events" && <EventsView />}
        {route.view === "webhooks" && <WebhooksView deliveryId={route.id} />}
        {route.view === "otp" && <OtpView />}
        {route.view === "chaos" && <ChaosView />}
      </main>
    </div>
  );
}

/** When the page has no key it may use: paste one. */
function KeyForm({ problem }: { problem: string }) {
  const [key, setKey] = useState("");
  return (
    <form
      class="key-form"
      onSubmit={(e) => {
        e.preventDefault();
        void start(key.trim(), true);
      }}
    >
      <h1>msgctl inspector</h1>
      <p role="alert">{problem}</p>
      <label>
        API key{" "}
        <input
          type="password"
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
          placeholder="sk_test_…"
          autoComplete="off"
          required
        />
      </label>
      <button type="submit">Open</button>
    </form>
  );
}
