import { lookup } from "node:dns/promises";
import { dirname, join, resolve } from "node:path";
import type { AccountView } from "../contract/control.js";
import type { CreatedAccount } from "../domain/accounts/index.js";
import {
  createBus,
  createContext,
  fanOutsOf,
  jobHandlersOf,
  type DomainBus,
  type DomainContext,
} from "../domain/core/index.js";
import type { ChaosStatus } from "../contract/chaos.js";
import {
  applySettings,
  chaosStatus,
  createSandboxControl,
  isSeeded,
  seedFixture,
  startChaos,
  type Fixture,
  type SandboxControl,
} from "../domain/control/index.js";
import { closeWebhookConnections } from "../domain/webhooks/index.js";
import { AppError, invalidRequest, isAppError } from "../lib/app-error.js";
import { cryptoIds } from "../lib/ids.js";
import { openClock } from "../scheduler/clock.js";
import { Scheduler } from "../scheduler/scheduler.js";
import { HostGuard } from "../server/host-guard.js";
import { createMessagingApp, createOtpApp, type HostApp } from "../server/hosts.js";
import { serveApp, type ListeningHost } from "../server/listen.js";
import { openBlobStore } from "../store/attachments/index.js";
import { fileOpener, lockDatabaseFile, openDatabase, type DatabaseLock, type Db } from "../store/engine/index.js";
import { openSnapshotStore, SnapshotFileProblem } from "../store/control/index.js";
import { silentLogger } from "./logger.js";
import { MODULES } from "./modules.js";
import { assertPortsFree } from "./port-check.js";
import { binaryWorkerSqlite, isSingleBinary, sqliteAddon } from "./single-binary.js";
import { checkSandboxOptions, type SandboxOptions } from "./sandbox-options.js";
import { packageVersion } from "./version.js";

/** An account as the ready line shows it; a key is null when it was shown at an earlier start. */
export type SandboxAccount = AccountView;

/** A running sandbox: its hosts, accounts, the parts tests reach into, and `stop()`. */
export interface Sandbox {
  baseUrl: string;
  otpUrl: string;
  inspectorUrl: string;
  accounts: SandboxAccount[];
  /** The validated fixture it started from (what a reset re-seeds by default). */
  fixture: Fixture;
  /** Keys generated at this start (shown once). */
  generatedKeys: { account: string; kind: "api_key" | "otp_api_key"; key: string }[];
  ctx: DomainContext;
  /** Committed events, jobs and delivery attempts, for live listeners. */
  bus: DomainBus;
  scheduler: Scheduler;
  control: SandboxControl;
  messagingApp: HostApp;
  otpApp: HostApp;
  /** The seeded chaos in force (on from `chaos`, or still on in a database it was switched on in). */
  chaos(): ChaosStatus;
  /** The address both hosts are bound to (`0.0.0.0` for every interface); undefined when not listening. */
  listenAddress: string | undefined;
  db: Db;
  /**
   * Stops: hosts closed, the running tick finished, webhook attempts still in flight after
   * `graceMs` (default 2 s) aborted and left due for the next start, the database closed.
   */
  stop(graceMs?: number): Promise<void>;
}

async function resolveWithDns(host: string): Promise<string[]> {
  const records = await lookup(host, { all: true, verbatim: true });
  return records.map((record) => record.address);
}

/** Holds a database file for this process (409 `database_locked` when another holds it). */
function holdDatabase(path: string): DatabaseLock {
  try {
    return lockDatabaseFile(path, { nativeBinding: sqliteAddon() });
  } catch (error) {
    if (isAppError(error)) throw error;
    throw invalidRequest(`Cannot open the database ${path}: ${(error as Error).message}`);
  }
}

/** Starts a sandbox: validates the fixture and checks the ports first, then opens the database, seeds, serves. */
export async function launchSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const logger = options.logger ?? silentLogger;
  // --- Validate the options and the fixture before anything is written ---
  const { allowedHosts, chaos, startSettings, fixture } = checkSandboxOptions(options);

  // --- Check the ports before anything is written ---
  const host = options.host ?? "127.0.0.1";
  if (options.listen !== false) await assertPortsFree(host, [options.port ?? 0, options.otpPort ?? 0]);

  // --- Hold the database file: one process per database, refused before anything is written ---
  const path = options.db ?? ":memory:";
  const lock = path === ":memory:" ? undefined : holdDatabase(path);

  // --- The snapshot to start from, checked before anything is written ---
  const version = packageVersion();
  const snapshots = openSnapshotStore({
    folder: path === ":memory:" ? undefined : (options.snapshots ?? join(dirname(resolve(path)), "snapshots")),
    connect: fileOpener(sqliteAddon()),
    version,
  });
  if (options.restore !== undefined) {
    const restore = options.restore;
    try {
      await (await snapshots.openFile(restore)).release();
    } catch (error) {
      lock?.release();
      // Its own code, as a bad fixture has: what to fix is that file, not a flag.
      throw error instanceof SnapshotFileProblem
        ? new AppError("invalid_snapshot", 400, `${restore} ${error.message}`)
        : error;
    }
  }

  // --- Store, clock, domain ---
  const db = await openDatabase(path, {
    nativeBinding: sqliteAddon(),
    workerSqlite: isSingleBinary() ? binaryWorkerSqlite : undefined,
  }).catch((error: Error) => {
    lock?.release();
    throw invalidRequest(`Cannot open the database ${options.db}: ${error.message}`);
  });
  const blobs = openBlobStore(path);
  const clock = openClock(db, options.clock ?? "manual", Date.now());
  const modules = options.modules ?? MODULES;
  const bus = createBus((error) =>
    logger.error("listener failed", { error: error instanceof Error ? error : String(error) }),
  );
  const ctx = createContext({
    db,
    clock,
    bus,
    fanOuts: fanOutsOf(modules),
    ids: options.ids ?? cryptoIds(),
    fetch: options.fetch,
    resolveHost: options.resolveHost ?? resolveWithDns,
    blobs,
  });
  let seeded: CreatedAccount[];
  // A database seeded before (a restart) or a snapshot to start from: the fixture is not used.
  const keepsState = options.restore !== undefined || isSeeded(ctx);
  try {
    seeded = keepsState ? [] : seedFixture(ctx, fixture, startSettings);
  } catch (error) {
    db.close();
    lock?.release();
    throw error;
  }

  // --- Scheduler ---
  const scheduler = new Scheduler({
    db,
    clock,
    handlers: jobHandlersOf(ctx, modules),
    onJobError: (job, error) =>
      logger.error("job failed", { job: job.kind, id: job.id, error: error instanceof Error ? error : String(error) }),
  });
  bus.on("job", ({ dueAt, lane }) => scheduler.wake(dueAt, lane));
  db.onCommit(() => bus.publish("changed", null));
  const control = createSandboxControl({
    ctx,
    jobs: scheduler,
    fixture,
    seeded,
    startSettings,
    snapshots,
    version,
    onAccountsChanged: () => options.onReset?.(),
  });
  try {
    if (options.restore !== undefined) await control.snapshots.restoreFile(options.restore);
    // This start's own settings and chaos go over the state it kept (a restart's, a snapshot's).
    if (keepsState && Object.keys(startSettings).length > 0) {
      ctx.db.transaction(() => applySettings(ctx, startSettings));
    }
    if (chaos) startChaos(ctx, chaos);
  } catch (error) {
    db.close();
    lock?.release();
    await snapshots.close();
    throw error;
  }

  // --- Hosts ---
  const onUnexpectedError = (error: unknown) =>
    logger.error("unexpected error", { error: error instanceof Error ? error : String(error) });
  const guard = new HostGuard({ bindHost: host, allowedHosts });
  const messagingApp = createMessagingApp({ ctx, control, version, guard, onUnexpectedError });
  const otpApp = createOtpApp({ ctx, control, version, guard, onUnexpectedError });
  let hosts: ListeningHost[] = [];
  if (options.listen !== false) {
    try {
      hosts = [await serveApp(messagingApp, host, options.port ?? 0)];
      hosts.push(await serveApp(otpApp, host, options.otpPort ?? 0));
      // Known only now with port 0: a page of either host may call both.
      for (const listening of hosts) guard.addPort(listening.port);
    } catch (error) {
      await Promise.all(hosts.map((h) => h.close()));
      db.close();
      lock?.release();
      await snapshots.close();
      throw error;
    }
  }
  scheduler.start();

  const baseUrl = hosts[0]?.url ?? "http://messaging.invalid";
  const otpUrl = hosts[1]?.url ?? "http://otp.invalid";
  Object.assign(ctx.urls, { messaging: baseUrl, otp: otpUrl });
  let stopped: Promise<void> | undefined;

  return {
    baseUrl,
    otpUrl,
    inspectorUrl: `${baseUrl}/`,
    get accounts() {
      return control.accounts();
    },
    fixture,
    generatedKeys: seeded.flatMap((account) => [
      ...(account.generated.api_key ? [{ account: account.name, kind: "api_key" as const, key: account.api_key }] : []),
      ...(account.generated.otp_api_key
        ? [{ account: account.name, kind: "otp_api_key" as const, key: account.otp_api_key }]
        : []),
    ]),
    ctx,
    bus,
    scheduler,
    control,
    messagingApp,
    otpApp,
    chaos: () => chaosStatus(ctx),
    listenAddress: hosts[0]?.address,
    db,
    stop(graceMs) {
      stopped ??= (async () => {
        await Promise.all(hosts.map((h) => h.close()));
        await scheduler.stop(graceMs);
        await closeWebhookConnections(ctx);
        // Where a real clock stood, so that the next start, in either mode, goes on from there.
        clock.save();
        db.close();
        lock?.release();
        await snapshots.close();
      })();
      return stopped;
    },
  };
}
