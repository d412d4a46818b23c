import { lookup } from "node:dns/promises";
import type { H3 } from "h3";
import { allAccounts } from "../domain/accounts.js";
import { createContext, resetCaches, type DomainContext } from "../domain/context.js";
import type { EmittedEvent } from "../domain/events.js";
import { parseFixture, type Fixture } from "../domain/fixture.js";
import { eventFanOuts, jobHandlers } from "../domain/modules.js";
import { listAccountNumbers, type NumberResource } from "../domain/numbers.js";
import { isSeeded, seedFixture, type SeededAccount } from "../domain/seed.js";
import { defaultSettings, type Settings } from "../domain/settings.js";
import { AppError, invalidRequest, invalidState } from "../lib/app-error.js";
import { MAX_CLOCK_MS } from "../lib/bounded-input.js";
import { isoTime, type ClockMode } from "../lib/clock.js";
import { cryptoIds, type IdSource } from "../lib/ids.js";
import { hashKey } from "../lib/key-hash.js";
import { openClock } from "../scheduler/clock.js";
import { Scheduler } from "../scheduler/scheduler.js";
import type { SandboxControl } from "../server/control.js";
import { createMessagingApp, createOtpApp } from "../server/hosts.js";
import { serveApp, type ListeningHost } from "../server/listen.js";
import { openDatabase, type Db } from "../store/database.js";
import { findKeyByHash } from "../store/accounts.js";
import { defaultFixturePath, loadFixtureFile } from "./fixture-source.js";
import { silentLogger, type Logger } from "./logger.js";

/** How to start a sandbox; every field has a default. */
export interface SandboxOptions {
  /** Database file, or `:memory:` (default). */
  db?: string;
  /** A fixture file path or a fixture object; seeds an empty database (default: the shipped one). */
  fixture?: string | object;
  /** How errors name an object fixture (default `fixture`). */
  fixtureSource?: string;
  /** `manual` (default for in-process use) or `real`. */
  clock?: ClockMode;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  otpPort?: number;
  /** False builds the apps without opening sockets (tests call `app.request`). */
  listen?: boolean;
  /** Overrides of the simulated world's settings (latencies, caps, strict URLs). */
  settings?: Partial<Settings>;
  logger?: Logger;
  /** Called after a reset re-seeded the accounts (serve rewrites its state file). */
  onReset?: () => void;
  ids?: IdSource;
  fetch?: typeof fetch;
  resolveHost?: (host: string) => Promise<string[]>;
}

/** An account as the ready line shows it; a key is null when it was shown at an earlier start. */
export interface SandboxAccount {
  name: string;
  api_key: string | null;
  otp_api_key: string | null;
  numbers: NumberResource[];
}

/** A running sandbox: its hosts, accounts, the parts tests reach into, and `stop()`. */
export interface Sandbox {
  baseUrl: string;
  otpUrl: string;
  inspectorUrl: string;
  accounts: SandboxAccount[];
  /** Keys generated at this start (shown once). */
  generatedKeys: { account: string; kind: "api_key" | "otp_api_key"; key: string }[];
  ctx: DomainContext;
  scheduler: Scheduler;
  control: SandboxControl;
  messagingApp: H3;
  otpApp: H3;
  db: Db;
  stop(): Promise<void>;
}

async function resolveWithDns(host: string): Promise<string[]> {
  const records = await lookup(host, { all: true, verbatim: true });
  return records.map((record) => record.address);
}

/** Starts a sandbox: validates the fixture first, then opens the database, seeds, serves. */
export async function launchSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const logger = options.logger ?? silentLogger;
  // --- Validate the fixture before anything is written ---
  const fixture: Fixture =
    typeof options.fixture === "object"
      ? parseFixture(options.fixture, options.fixtureSource ?? "fixture")
      : loadFixtureFile(options.fixture ?? defaultFixturePath());

  // --- Store, clock, domain ---
  const db = await openDatabase(options.db ?? ":memory:");
  const clock = openClock(db, options.clock ?? "manual", Date.now());
  const ctx = createContext({
    db,
    clock,
    ids: options.ids ?? cryptoIds(),
    settings: { ...defaultSettings, ...options.settings },
    fetch: options.fetch,
    resolveHost: options.resolveHost ?? resolveWithDns,
  });
  ctx.fanOut.push(...eventFanOuts);

  let seeded: SeededAccount[] = isSeeded(ctx) ? [] : seedFixture(ctx, fixture);

  // --- Scheduler ---
  const scheduler = new Scheduler({
    db,
    clock,
    dispatch(job, signal) {
      const handler = jobHandlers[job.kind];
      if (!handler) throw new Error(`No handler for job kind "${job.kind}"`);
      return handler(ctx, JSON.parse(job.payload), { id: job.id, dueAt: job.due_at, signal });
    },
    onJobError: (job, error) => logger.error("job failed", { job: job.kind, id: job.id, error: String(error) }),
  });
  const listeners = new Set<(event: EmittedEvent) => void>();
  ctx.signals.jobScheduled = (dueAt) => scheduler.wake(dueAt);
  ctx.signals.eventAppended = (event) => {
    for (const listener of listeners) listener(event);
  };

  // --- Control API ---
  const control: SandboxControl = {
    clock: () => ({ now: clock.now(), mode: clock.mode }),
    async advance(ms) {
      if (clock.mode !== "manual") throw invalidState("The clock is real: start the sandbox with --clock manual to advance it");
      // Past year 9999 timestamps lose their ISO 8601 shape (and Date ends soon after).
      if (!(ms >= 0) || clock.now() + ms > MAX_CLOCK_MS) {
        throw invalidRequest(`advance: must be 0 or more and keep the clock at or before ${isoTime(MAX_CLOCK_MS)} (it is ${isoTime(clock.now())})`);
      }
      const now = await scheduler.advance(ms);
      return { now, mode: clock.mode };
    },
    reset: (next) =>
      scheduler.exclusively(
        () => {
          db.wipe();
          resetCaches(ctx);
          seeded = seedFixture(ctx, next ?? fixture);
          options.onReset?.();
          return seeded;
        },
        { abortInFlight: true },
      ),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  // --- Hosts ---
  const onUnexpectedError = (error: unknown) => logger.error("unexpected error", { error: error instanceof Error ? error.stack : String(error) });
  const messagingApp = createMessagingApp({ ctx, control, onUnexpectedError });
  const otpApp = createOtpApp({ ctx, control, onUnexpectedError });
  const host = options.host ?? "127.0.0.1";
  let hosts: ListeningHost[] = [];
  if (options.listen !== false) {
    try {
      hosts = [await serveApp(messagingApp, host, options.port ?? 0)];
      hosts.push(await serveApp(otpApp, host, options.otpPort ?? 0));
    } catch (error) {
      await Promise.all(hosts.map((h) => h.close()));
      db.close();
      throw error;
    }
  }
  scheduler.start();

  const baseUrl = hosts[0]?.url ?? "http://messaging.invalid";
  const otpUrl = hosts[1]?.url ?? "http://otp.invalid";
  let stopped: Promise<void> | undefined;

  return {
    baseUrl,
    otpUrl,
    inspectorUrl: `${baseUrl}/`,
    get accounts() {
      return describeAccounts(ctx, seeded, fixture);
    },
    generatedKeys: seeded.flatMap((account) => [
      ...(account.generated.api_key ? [{ account: account.name, kind: "api_key" as const, key: account.api_key }] : []),
      ...(account.generated.otp_api_key ? [{ account: account.name, kind: "otp_api_key" as const, key: account.otp_api_key }] : []),
    ]),
    ctx,
    scheduler,
    control,
    messagingApp,
    otpApp,
    db,
    stop() {
      stopped ??= (async () => {
        await Promise.all(hosts.map((h) => h.close()));
        await scheduler.stop();
        db.close();
      })();
      return stopped;
    },
  };
}

/**
 * The accounts with the keys this process knows: generated or named at this start, or named
 * by the fixture and still valid for this database. Others were shown once and are null.
 */
function describeAccounts(ctx: DomainContext, seeded: SeededAccount[], fixture: Fixture): SandboxAccount[] {
  const known = (key: string | undefined) => (key && findKeyByHash(ctx.db, hashKey(key)) ? key : null);
  return allAccounts(ctx).map((account) => {
    const fresh = seeded.find((s) => s.name === account.name);
    const named = fixture.accounts.find((a) => a.name === account.name);
    return {
      name: account.name,
      api_key: fresh?.api_key ?? known(named?.api_key),
      otp_api_key: fresh?.otp_api_key ?? known(named?.otp_api_key),
      numbers: listAccountNumbers(ctx, account.id),
    };
  });
}

/** Throws when a sandbox option is out of range (flags are validated before anything starts). */
export function assertPort(name: string, port: number): void {
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new AppError("invalid_request", 400, `${name} must be a port number from 0 to 65535 (got ${port})`);
  }
}
