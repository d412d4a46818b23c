/** The control API's rules: fixtures and their seeding, the clock, reset, settle, the settings and snapshots. */
export { createSandboxControl, type SandboxControl } from "./clock-and-reset.js";
export { parseFixture, parseFixtureText, type Fixture } from "./fixture.js";
export { isSeeded, seedFixture } from "./seed.js";
export { MAX_SNAPSHOT_BYTES, snapshotNameOf } from "./snapshots.js";
export { chaosStatus, startChaos, stopChaos } from "./chaos.js";
export { applySettings, getSettings, updateSettings } from "./settings.js";
