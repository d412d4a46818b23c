import { settingsOverrides, type Settings } from "../../contract/settings.js";
import { parseInput } from "../../lib/validation.js";

export type { Settings };

const MiB = 1024 * 1024;

/** The defaults documented for users. */
export const defaultSettings: Readonly<Settings> = Object.freeze({
  sendLatencyMs: 200,
  deliverLatencyMs: 500,
  readDelayMs: 2_000,
  mediaCapBytes: Object.freeze({ imessage: 100 * MiB, sms: 1 * MiB, whatsapp: 16 * MiB }),
  maxJsonBodyBytes: 1 * MiB,
  maxUploadBytes: 100 * MiB,
  webhookTimeoutMs: 10_000,
  strictUrls: false,
});

/**
 * The settings with `overrides` applied; 400 invalid_request naming `settings.<key>` for an
 * unknown key (a typo would otherwise change nothing, silently) or a value out of range.
 */
export function settingsWith(overrides: unknown): Settings {
  if (overrides === undefined) return { ...defaultSettings };
  const { settings } = parseInput(settingsOverrides, { settings: overrides });
  return { ...defaultSettings, ...settings } as Settings;
}
