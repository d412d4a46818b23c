import { chaosBody, type ChaosInput } from "../contract/chaos.js";
import { parseFixture, type Fixture } from "../domain/control/index.js";
import type { SettingsPatch } from "../contract/settings.js";
import { startSettingsPatch, type DomainModule, type SettingsOverrides } from "../domain/core/index.js";
import { invalidRequest, isAppError } from "../lib/app-error.js";
import { CLOCK_MODES, type ClockMode } from "../lib/clock.js";
import { parseAllowedHosts, type AllowedHost } from "../lib/host-names.js";
import type { IdSource } from "../lib/ids.js";
import { parseInput } from "../lib/validation.js";
import { loadDefaultFixture, loadFixtureFile } from "./fixture-source.js";
import type { Logger } from "./logger.js";

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
  /**
   * Names besides loopback and `host` that requests may carry in their Host header (exact,
   * case-insensitive, any port; `.example.test` allows that name and every name under it).
   */
  allowedHosts?: readonly string[];
  /** 0 (default) picks a free port. */
  port?: number;
  otpPort?: number;
  /** False builds the apps without opening sockets (tests call `app.request`). */
  listen?: boolean;
  /**
   * Settings of the simulated world (latencies, caps, strict URLs) over the fixture's: written to
   * the database as a PATCH of the settings would be, at every start and after a reset.
   */
  settings?: SettingsOverrides;
  /** Seeded chaos from the start (docs/chaos.md); a database whose chaos has this seed and profile keeps its numbering. */
  chaos?: ChaosInput;
  logger?: Logger;
  /** Called after a reset or a restore replaced the accounts (serve rewrites its state file). */
  onReset?: () => void;
  /**
   * The folder of a database file's snapshots (default: `snapshots/` beside the file); a
   * `:memory:` sandbox keeps its snapshots in memory.
   */
  snapshots?: string;
  /** An exported snapshot file to start from instead of seeding (the fixture is then not used). */
  restore?: string;
  ids?: IdSource;
  /** The concepts wired in (default: every module of runtime/modules.ts); tests add their own. */
  modules?: readonly DomainModule[];
  fetch?: typeof fetch;
  resolveHost?: (host: string) => Promise<string[]>;
}

/** The options a start reads once they are checked: the fixture loaded, hosts, chaos and settings parsed. */
export interface CheckedSandboxOptions {
  allowedHosts: AllowedHost[];
  chaos: ChaosInput | undefined;
  startSettings: SettingsPatch;
  fixture: Fixture;
}

/** The `chaos` option checked before anything is written: 400 naming `chaos.seed` or `chaos.profile`. */
function parseChaosOption(input: unknown): ChaosInput {
  try {
    return parseInput(chaosBody, input, "chaos");
  } catch (error) {
    if (!isAppError(error) || error.message.startsWith("chaos:")) throw error;
    throw invalidRequest(`chaos.${error.message}`);
  }
}

/** Validates the options and loads the fixture before anything is written: a 400 naming the option. */
export function checkSandboxOptions(options: SandboxOptions): CheckedSandboxOptions {
  if (options.clock !== undefined && !CLOCK_MODES.includes(options.clock)) {
    throw invalidRequest(`clock: must be "manual" or "real" (got ${JSON.stringify(options.clock)})`);
  }
  if (
    options.fixture !== undefined &&
    (options.fixture === null || !["string", "object"].includes(typeof options.fixture))
  ) {
    throw invalidRequest(
      `fixture: must be a file path or a fixture object (got ${options.fixture === null ? "null" : typeof options.fixture})`,
    );
  }
  if (options.allowedHosts !== undefined && !Array.isArray(options.allowedHosts)) {
    throw invalidRequest(`allowedHosts: must be an array of host names (got ${typeof options.allowedHosts})`);
  }
  const allowedHosts = parseAllowedHosts(options.allowedHosts ?? [], "allowedHosts");
  const chaos = options.chaos === undefined ? undefined : parseChaosOption(options.chaos);
  const startSettings = startSettingsPatch(options.settings);
  const fixture: Fixture =
    options.restore !== undefined
      ? loadDefaultFixture()
      : typeof options.fixture === "object"
        ? parseFixture(options.fixture, options.fixtureSource ?? "fixture")
        : options.fixture
          ? loadFixtureFile(options.fixture)
          : loadDefaultFixture();
  return { allowedHosts, chaos, startSettings, fixture };
}
