/** The sandbox itself (SANDBOX.md sections 2, 4, 6): fixtures, seeding, the clock and reset controls. */
export { createSandboxControl, type JobRunner, type SandboxControl, type SandboxControlOptions } from "./control.js";
export { parseFixture, parseFixtureText, type Fixture, type FixtureAccount } from "./fixture.js";
export { isSeeded, seedFixture, type SeededAccount } from "./seed.js";
