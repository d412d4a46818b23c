import type { ClockMode } from "../lib/clock.js";
import type { EmittedEvent } from "../domain/core/events.js";
import type { Fixture } from "../domain/sandbox/fixture.js";
import type { SeededAccount } from "../domain/sandbox/seed.js";

/** What the control API needs from the running sandbox; the runtime implements it. */
export interface SandboxControl {
  /** The clock's time and mode. */
  clock(): { now: number; mode: ClockMode };
  /** Advances the manual clock, running due work (409 invalid_state on a real clock). */
  advance(ms: number): Promise<{ now: number; mode: ClockMode }>;
  /** Wipes all state and re-seeds from a fixture (the one the sandbox started with by default). */
  reset(fixture?: Fixture): Promise<SeededAccount[]>;
  /** Calls `listener` for every event emitted from now on; returns an unsubscribe function. */
  subscribe(listener: (event: EmittedEvent) => void): () => void;
}
