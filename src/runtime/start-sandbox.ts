import { createClient, type MsgctlClient } from "../client/client.js";
import type {
  AccountView,
  ChaosInput,
  CheckWebhookInput,
  EventPayload,
  EventType,
  EventView,
  RestoredSnapshot,
  SettingsOverrides,
  SettleResult,
  SnapshotView,
  WebhookCheckReport,
} from "../contract/types.js";
import type { Fixture } from "../domain/control/index.js";
import { invalidRequest } from "../lib/app-error.js";
import { isoTime } from "../lib/clock.js";
import { parseDuration } from "../lib/duration.js";
import { eventWaits } from "./event-waits.js";
import { launchSandbox } from "./launch-sandbox.js";

/** Options of `startSandbox`: all optional. */
export interface StartSandboxOptions {
  /** A fixture file path or object (its format: docs/sandbox.md); default: the shipped fixture. */
  fixture?: string | object;
  /** `manual` (default: time moves only with `clock.advance`) or `real`. */
  clock?: "manual" | "real";
  /** Database file; default `:memory:`. */
  db?: string;
  /**
   * The folder of the snapshots of a database file (default: `snapshots/` beside it); a
   * `:memory:` sandbox keeps its snapshots in memory, until exported.
   */
  snapshots?: string;
  /**
   * An exported snapshot file (`msgctl snapshot export`, `client.snapshots.export`) to start from,
   * as `serve --restore FILE` does: its accounts, keys and state; `fixture` is then not used.
   */
  restore?: string;
  host?: string;
  /**
   * Names besides loopback and `host` the sandbox answers to in the Host header: exact names,
   * case-insensitive, any port; `.example.test` allows that name and every name under it. Any
   * other Host is 403 `forbidden_host`, so a web page on a domain re-resolved to 127.0.0.1 (DNS
   * rebinding) cannot drive the sandbox; name here what a container or proxy calls it by.
   */
  allowedHosts?: string[];
  /** Ports; default 0 (free ports). */
  port?: number;
  otpPort?: number;
  /**
   * Seeded chaos from the start (docs/chaos.md): deliveries sent twice, swapped or held back,
   * sends that meet a number offline or a transient error, lost receipts, at the profile's rates
   * (`mild` by default), decided from `seed` so that the same seed over the same calls replays.
   */
  chaos?: ChaosInput;
  /**
   * Simulated-world settings over the fixture's: latencies, media caps, `strictUrls`, … (change
   * them later with `settings.update()`).
   */
  settings?: SettingsOverrides;
}

/** What `waitForEvent` matches: payload fields that must be equal, or a predicate. */
export type EventMatch<T extends EventType = EventType> =
  | Partial<EventPayload<T>>
  | ((payload: EventPayload<T>) => boolean);

/** Options of `waitForEvent`. */
export interface WaitForEventOptions<T extends EventType = EventType> {
  match?: EventMatch<T>;
  /** Real time for the whole wait, delivery included: milliseconds or a duration (`"10s"`); default 5 s. */
  timeout?: number | string;
  /** @deprecated Use `timeout`; this spelling is still read. */
  timeoutMs?: number;
  /** The account whose events count (default: the first). */
  account?: string;
  /** Resolve only once the event's first attempt to every subscribed endpoint has finished, not when it is emitted. */
  delivered?: boolean;
}

/** A sandbox running inside the test process. */
export interface StartedSandbox {
  baseUrl: string;
  otpUrl: string;
  inspectorUrl: string;
  /** The first account's keys (the default fixture's are fixed). */
  apiKey: string;
  otpApiKey: string;
  accounts: AccountView[];
  /** A typed client with the first account's keys. */
  client: MsgctlClient;
  /** A client acting as another account of the fixture. */
  clientFor(accountName: string): MsgctlClient;
  /** The other side: inbound messages, receipts, reactions, typing, edits, per-number faults. */
  simulate: MsgctlClient["simulate"];
  /** The simulated world's contacts (profiles that decide routing). */
  contacts: MsgctlClient["contacts"];
  /** Seeded chaos: `status()`, `on({ seed, profile })`, `off()`, and `log()` of what it decided. */
  chaos: MsgctlClient["chaos"];
  /**
   * The simulated world's settings: `get()` every one, `update({ send_latency_ms: 1000 })` any
   * subset (snake_case, as the control API and the fixture name them).
   */
  settings: MsgctlClient["settings"];
  /**
   * The OTP service with the first account's OTP key: `create`, `get`, `consume`, and the
   * user's side, `text(id)` (the right code by default, or `{ wrong: true }`, `{ from }`, …).
   */
  otp: MsgctlClient["otp"];
  clock: {
    mode: "manual" | "real";
    now(): Date;
    /** Runs everything due up to now + `by` (ms or `"1h30m"`), webhook attempts included. */
    advance(by: number | string): Promise<Date>;
  };
  /**
   * Resolves once every job due now has run and every webhook delivery of an event emitted
   * before the call has finished its first attempt (acknowledged, failed, timed out or dropped),
   * on either clock; it never moves the clock. Call it after a control action (simulate, …) and
   * before looking at your app. `timeout` is real time (ms or `"10s"`, default 10 s); past it,
   * an AppError `settle_timeout` (408) names the deliveries still in flight.
   */
  settle(options?: { timeout?: number | string }): Promise<SettleResult>;
  /** Events emitted so far for the first account (or `account`), oldest first. */
  events(account?: string): EventView[];
  /**
   * Resolves with the first event of `type` matching `match` (already emitted ones count); with
   * `delivered: true`, only once its first attempt to every subscribed endpoint has finished.
   */
  waitForEvent<T extends EventType>(type: T, options?: WaitForEventOptions<T>): Promise<EventView<T>>;
  /**
   * Grades your own webhook handler: sends it a fixed battery of requests (a valid event, the
   * same event again, forged and stale signatures, events out of order, an unknown field) and
   * says of each whether a correct handler would have answered so, and if not what to change.
   * `passed` is false when any probe failed; an ApiError `unreachable` (422)
   * when nothing answers at `url`. Loopback URLs are allowed whatever `strictUrls` says.
   */
  checkWebhookHandler(input: CheckWebhookInput): Promise<WebhookCheckReport>;
  /** Wipes all state and re-seeds from the fixture; the keys stay those of this handle. */
  reset(): Promise<void>;
  /**
   * Saves the whole sandbox under `name` (replacing a snapshot of that name): accounts, the world,
   * messages, attachments and their bytes, webhooks, events, deliveries and retries, jobs,
   * idempotency keys and the clock. Attempts on the wire finish first.
   */
  snapshot(name: string): Promise<SnapshotView>;
  /**
   * Replaces the whole sandbox by the snapshot `name`, every account included; attempts in
   * flight are abandoned. A manual clock goes back to the snapshot's time. Cheap enough to run
   * before every test.
   */
  restore(name: string): Promise<RestoredSnapshot>;
  stop(): Promise<void>;
}

/**
 * Starts a sandbox in this process: both hosts on free ports, an in-memory database, a manual
 * clock by default. Everything a test suite needs comes back; call `stop()` when done.
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<StartedSandbox> {
  const sandbox = await launchSandbox({
    db: options.db ?? ":memory:",
    snapshots: options.snapshots,
    restore: options.restore,
    fixture: options.fixture,
    fixtureSource: "startSandbox({ fixture })",
    clock: options.clock ?? "manual",
    host: options.host,
    allowedHosts: options.allowedHosts,
    port: options.port ?? 0,
    otpPort: options.otpPort ?? 0,
    settings: options.settings,
    chaos: options.chaos,
  });
  const accounts = sandbox.accounts;
  const first = accounts[0];
  // A database seeded at an earlier start, by a fixture that left the keys out: they were
  // generated then and are kept only as hashes, so this handle could never authenticate.
  const keyless = (options.restore === undefined ? sandbox.fixture.accounts : []).filter(
    (account) => !accounts.find((a) => a.name === account.name)?.api_key,
  );
  if (keyless.length > 0) {
    await sandbox.stop();
    throw invalidRequest(
      `startSandbox: the keys of account "${keyless[0]?.name}" in ${options.db} were generated at an earlier start and are kept only as hashes: ` +
        "name api_key and otp_api_key in the fixture to reuse this database, or start from a new one",
    );
  }
  const clientFor = (name: string) => {
    const account = sandbox.accounts.find((a) => a.name === name);
    if (!account) throw new Error(`No account named "${name}"`);
    return createClient({
      baseUrl: sandbox.baseUrl,
      otpUrl: sandbox.otpUrl,
      apiKey: account.api_key ?? undefined,
      otpApiKey: account.otp_api_key ?? undefined,
    });
  };
  const waits = eventWaits(sandbox);

  const client = clientFor(first?.name ?? "");
  // Keys the fixture leaves out are generated at start; a reset keeps them, so that `apiKey`,
  // `client` and every `clientFor` client taken before it still work after it.
  const keyed: Fixture = {
    ...sandbox.fixture,
    accounts: sandbox.fixture.accounts.map((account) => {
      const seeded = accounts.find((a) => a.name === account.name);
      return {
        ...account,
        api_key: account.api_key ?? seeded?.api_key ?? undefined,
        otp_api_key: account.otp_api_key ?? seeded?.otp_api_key ?? undefined,
      };
    }),
  };
  return {
    baseUrl: sandbox.baseUrl,
    otpUrl: sandbox.otpUrl,
    inspectorUrl: sandbox.inspectorUrl,
    apiKey: first?.api_key ?? "",
    otpApiKey: first?.otp_api_key ?? "",
    accounts,
    client,
    clientFor,
    simulate: client.simulate,
    contacts: client.contacts,
    chaos: client.chaos,
    settings: client.settings,
    otp: client.otp,
    clock: {
      mode: sandbox.ctx.clock.mode,
      now: () => new Date(sandbox.ctx.clock.now()),
      async advance(by) {
        const ms = typeof by === "number" ? by : parseDuration(by);
        return new Date((await sandbox.control.advance(ms)).now);
      },
    },
    async settle({ timeout }: { timeout?: number | string } = {}) {
      const ms = timeout === undefined || typeof timeout === "number" ? timeout : parseDuration(timeout, "timeout");
      const settled = await sandbox.control.settle(ms);
      return { now: isoTime(settled.now), jobs_run: settled.jobsRun, attempts: settled.attempts };
    },
    events: waits.events,
    waitForEvent: waits.waitForEvent,
    checkWebhookHandler: (input) => client.webhooks.check(input),
    reset: async () => {
      await sandbox.control.reset(keyed);
    },
    snapshot: (name) => sandbox.control.snapshots.save(name),
    restore: (name) => sandbox.control.snapshots.restore(name),
    stop: () => {
      waits.stopAll();
      return sandbox.stop();
    },
  };
}
