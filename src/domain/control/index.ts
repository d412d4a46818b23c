/** The control API's rules: fixtures and their seeding, the clock, reset, settle, the settings and snapshots. */
export {
  createSandboxControl,
  type JobRunner,
  type SandboxControl,
  type SandboxControlOptions,
} from "./clock-and-reset.js";
export { parseFixture, parseFixtureText, type Fixture, type FixtureAccount } from "./fixture.js";
export { isSeeded, seedFixture, type SeededAccount } from "./seed.js";
export {
  MAX_SNAPSHOT_BYTES,
  snapshotNameOf,
  snapshotView,
  type SnapshotControls,
} from "./snapshots.js";
export { DEFAULT_SETTLE_TIMEOUT_MS, MAX_SETTLE_TIMEOUT_MS, type Settled } from "./settle.js";
export { chaosStatus, startChaos, stopChaos } from "./chaos.js";
export { applySettings, getSettings, updateSettings } from "./settings.js";
