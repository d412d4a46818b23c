import type { Fixture } from "../../contract/fixture.js";
import type { AccountView } from "../../contract/control.js";
import type { SettingsPatch } from "../../contract/settings.js";
import { invalidRequest, invalidState } from "../../lib/app-error.js";
import { MAX_CLOCK_MS } from "../../lib/bounded-input.js";
import { isoTime, type ClockMode } from "../../lib/clock.js";
import { accountsWithKnownKeys, type CreatedAccount, type NamedKeys } from "../accounts/index.js";
import { chaosInput, switchChaosOn } from "../chaos/index.js";
import type { SnapshotStore } from "../../store/control/index.js";
import { resetCaches, type DomainContext, type SettleOutcome } from "../core/index.js";
import { seedFixture, type SeededAccount } from "./seed.js";
import { checkSettleTimeout, DEFAULT_SETTLE_TIMEOUT_MS, settleAnswer, type Settled } from "./settle.js";
import { createSnapshotControls, type SnapshotControls } from "./snapshots.js";

/** What moves time and runs jobs: the scheduler implements it (the domain never imports it). */
export interface JobRunner {
  /** Manual clock: runs every job due up to now + `ms`, each at its due time; resolves with the new now. */
  advance(ms: number): Promise<number>;
  /** Waits (real time, at most `timeoutMs`) until every job due at or before now has run; never moves the clock. */
  settle(timeoutMs: number): Promise<SettleOutcome>;
  /** Runs `fn` with no job running; `abortInFlight` aborts running jobs instead of waiting for them. */
  exclusively<T>(fn: () => T | Promise<T>, options?: { abortInFlight?: boolean }): Promise<T>;
  /**
   * Runs `fn`, which replaces the whole state (a restore), with attempts in flight abandoned;
   * `fn` answers the state's virtual time, where a manual clock goes (a real one keeps the wall's).
   */
  replaceState(fn: () => Promise<number>): Promise<void>;
}

/** The sandbox's own controls behind /sandbox/v1: the clock (moved by hand or by the wall clock) and reset (wipe, re-seed). */
export interface SandboxControl {
  /** The clock's time and mode. */
  clock(): { now: number; mode: ClockMode };
  /** Advances the manual clock, running due work; 409 invalid_state on a real clock. */
  advance(ms: number): Promise<{ now: number; mode: ClockMode }>;
  /**
   * Waits until every job due at or before now has run and every first delivery attempt due has
   * finished, on either clock, without moving it (docs/control-api.md, "Settle"); 408 settle_timeout
   * after `timeoutMs` (real time, default 10 s) naming the deliveries still in flight.
   */
  settle(timeoutMs?: number): Promise<Settled>;
  /** Wipes every account's state and re-seeds (from `fixture`, else the one the sandbox started with). */
  reset(fixture?: Fixture): Promise<SeededAccount[]>;
  /** Every account with the keys this process may show: seeded at this start, named by the fixture or a restored snapshot. */
  accounts(): AccountView[];
  /** Snapshots of the whole sandbox: save, restore, list, delete, export, import. */
  readonly snapshots: SnapshotControls;
}

/** What the controls act on. */
export interface SandboxControlOptions {
  ctx: DomainContext;
  jobs: JobRunner;
  /** The fixture a reset re-seeds by default. */
  fixture: Fixture;
  /** The accounts seeded at this start, keys in clear (none when the database was seeded before). */
  seeded: CreatedAccount[];
  /** The settings the sandbox was started with (`startSandbox({ settings })`, `--strict-urls`): a reset keeps them over the fixture's. */
  startSettings?: SettingsPatch;
  /** Where the snapshots are kept. */
  snapshots: SnapshotStore;
  /** This msgctl's version, recorded in each snapshot. */
  version: string;
  /** Told after a reset or a restore replaced the accounts (serve rewrites its state file). */
  onAccountsChanged?: () => void;
}

/** The clock, reset and snapshot controls of one sandbox. */
export function createSandboxControl(options: SandboxControlOptions): SandboxControl {
  const { ctx, jobs, fixture } = options;
  let seeded = options.seeded;
  let seededFrom = fixture;
  /** Keys a restored snapshot carried: shown while they are valid. */
  let restoredKeys: readonly NamedKeys[] = [];
  const accounts = () => accountsWithKnownKeys(ctx, seeded, [...restoredKeys, ...seededFrom.accounts]);
  return {
    accounts,
    snapshots: createSnapshotControls({
      ctx,
      jobs,
      store: options.snapshots,
      version: options.version,
      accounts,
      restored(keys) {
        restoredKeys = keys;
        options.onAccountsChanged?.();
      },
    }),
    clock: () => ({ now: ctx.clock.now(), mode: ctx.clock.mode }),
    async advance(ms) {
      if (ctx.clock.mode !== "manual")
        throw invalidState("The clock is real: start the sandbox with --clock manual to advance it");
      // Past year 9999 timestamps lose their ISO 8601 shape (and Date ends soon after).
      if (!(ms >= 0) || ctx.clock.now() + ms > MAX_CLOCK_MS) {
        throw invalidRequest(
          `advance: must be 0 or more and keep the clock at or before ${isoTime(MAX_CLOCK_MS)} (it is ${isoTime(ctx.clock.now())})`,
        );
      }
      const now = await jobs.advance(ms);
      // Time moved even when nothing fell due: live views redraw the clock.
      ctx.bus.publish("changed", null);
      return { now, mode: ctx.clock.mode };
    },
    async settle(timeoutMs = DEFAULT_SETTLE_TIMEOUT_MS) {
      checkSettleTimeout(timeoutMs);
      return settleAnswer(ctx, await jobs.settle(timeoutMs), timeoutMs);
    },
    reset: (next) =>
      jobs.exclusively(
        async () => {
          // Chaos is the sandbox's, like its clock: a reset keeps it on, its numbering started afresh.
          const chaos = chaosInput(ctx);
          ctx.db.wipe();
          resetCaches(ctx);
          if (chaos) switchChaosOn(ctx, chaos);
          // The attachments' bytes go with their rows.
          await ctx.blobs.clear();
          seededFrom = next ?? fixture;
          seeded = seedFixture(ctx, seededFrom, options.startSettings);
          restoredKeys = [];
          options.onAccountsChanged?.();
          return seeded;
        },
        { abortInFlight: true },
      ),
  };
}
