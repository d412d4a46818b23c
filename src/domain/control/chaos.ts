import type { ChaosStatus } from "../../contract/index.js";
import { chaosStatus, switchChaosOff, switchChaosOn } from "../chaos/index.js";
import type { DomainContext } from "../core/index.js";
import { releaseAllHeld } from "../webhooks/index.js";

/**
 * Switching seeded chaos on and off (PUT and DELETE /sandbox/v1/chaos, `msgctl chaos`, `serve
 * --chaos`, `startSandbox({ chaos })`; docs/chaos.md). Off stops every new decision and lets the
 * first attempts chaos holds back go at once, in order; copies already scheduled and numbers
 * already offline run their course.
 */

/** Switches chaos on (or to another seed or profile); 400 naming the field for a bad one. */
export function startChaos(ctx: DomainContext, input: unknown): ChaosStatus {
  return switchChaosOn(ctx, input);
}

/** Switches chaos off and lets what it held back go. */
export function stopChaos(ctx: DomainContext): ChaosStatus {
  ctx.db.transaction(() => {
    switchChaosOff(ctx);
    releaseAllHeld(ctx);
  });
  return chaosStatus(ctx);
}

export { chaosStatus };
