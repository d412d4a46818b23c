import { settingsPatch, type SettingsPatch, type SettingsView } from "../../contract/settings.js";
import { parseInput } from "../../lib/validation.js";
import { writeMeta } from "../../store/core/index.js";
import {
  forgetSettings,
  mergeSettingsPatches,
  readSettingsPatch,
  SETTINGS_META_KEY,
  settingsViewOf,
  type DomainContext,
} from "../core/index.js";

/**
 * The simulated world's settings at run time (docs/control-api.md, "Settings"). They are kept in
 * the database, so they survive a restart and a snapshot holds them: a restore brings back the
 * latencies it was saved with. What was never set follows the defaults.
 */

/** GET /sandbox/v1/settings: every setting with its current value. */
export function getSettings(ctx: DomainContext): SettingsView {
  return settingsViewOf(ctx.settings);
}

/**
 * PATCH /sandbox/v1/settings: any subset, `media_cap_bytes` merged; work scheduled afterwards
 * follows the new values (jobs already due keep their times). A bad key or value is 400
 * invalid_request naming it, and nothing changes.
 */
export function updateSettings(ctx: DomainContext, input: unknown): SettingsView {
  const patch = parseInput(settingsPatch, input ?? {});
  ctx.db.transaction(() => applySettings(ctx, patch));
  return getSettings(ctx);
}

/** Adds a validated patch to the settings kept in the database (inside the caller's transaction). */
export function applySettings(ctx: DomainContext, patch: SettingsPatch): void {
  writeMeta(ctx.db, SETTINGS_META_KEY, JSON.stringify(mergeSettingsPatches(readSettingsPatch(ctx.db), patch)));
  forgetSettings(ctx);
}
