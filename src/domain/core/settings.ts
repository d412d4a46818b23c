import {
  SETTING_NAMES,
  settingsOverrides,
  type Settings,
  type SettingsOverrides,
  type SettingsPatch,
  type SettingsView,
} from "../../contract/settings.js";
import { parseInput } from "../../lib/validation.js";
import { readMeta } from "../../store/core/index.js";
import type { Db } from "../../store/engine/index.js";

export type { Settings, SettingsOverrides };

const MiB = 1024 * 1024;

/** The defaults documented for users. */
export const defaultSettings: Readonly<Settings> = Object.freeze({
  sendLatencyMs: 200,
  deliverLatencyMs: 500,
  readDelayMs: 2_000,
  mediaCapBytes: Object.freeze({ imessage: 100 * MiB, sms: 1 * MiB, whatsapp: 16 * MiB }),
  maxJsonBodyBytes: 1 * MiB,
  maxUploadBytes: 100 * MiB,
  ffmpegPath: "ffmpeg",
  webhookTimeoutMs: 10_000,
  strictUrls: false,
});

/**
 * The meta row holding the settings set so far (by the fixture, the start options and PATCHes), as
 * a settings patch: what was never set follows the defaults of the msgctl that reads it.
 */
export const SETTINGS_META_KEY = "settings";

/** Settings `startSandbox` was given, as a patch; 400 invalid_request naming `settings.<key>` for an unknown key or a bad value. */
export function startSettingsPatch(overrides: unknown): SettingsPatch {
  if (overrides === undefined) return {};
  const { settings } = parseInput(settingsOverrides, { settings: overrides });
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) {
    if (value !== undefined) patch[SETTING_NAMES[key as keyof Settings]] = value;
  }
  return patch as SettingsPatch;
}

/** `patch` over `base`: later keys win, `media_cap_bytes` merges key by key. */
export function mergeSettingsPatches(base: SettingsPatch, patch: SettingsPatch): SettingsPatch {
  const merged: SettingsPatch = { ...base, ...patch };
  if (base.media_cap_bytes || patch.media_cap_bytes)
    merged.media_cap_bytes = { ...base.media_cap_bytes, ...patch.media_cap_bytes };
  return merged;
}

/** The settings in force: the defaults with a patch applied. */
export function settingsFrom(patch: SettingsPatch): Settings {
  const settings: Settings = { ...defaultSettings, mediaCapBytes: { ...defaultSettings.mediaCapBytes } };
  for (const [key, name] of Object.entries(SETTING_NAMES) as [keyof Settings, keyof SettingsPatch][]) {
    const value = patch[name];
    if (value === undefined) continue;
    if (key === "mediaCapBytes") Object.assign(settings.mediaCapBytes, value);
    else (settings as unknown as Record<string, unknown>)[key] = value;
  }
  return settings;
}

/** The settings as the control API shows them: every key, snake_case. */
export function settingsViewOf(settings: Settings): SettingsView {
  return {
    send_latency_ms: settings.sendLatencyMs,
    deliver_latency_ms: settings.deliverLatencyMs,
    read_delay_ms: settings.readDelayMs,
    media_cap_bytes: { ...settings.mediaCapBytes },
    max_json_body_bytes: settings.maxJsonBodyBytes,
    max_upload_bytes: settings.maxUploadBytes,
    ffmpeg_path: settings.ffmpegPath,
    webhook_timeout_ms: settings.webhookTimeoutMs,
    strict_urls: settings.strictUrls,
  };
}

/** The settings set so far in this database (none in a database made before settings were kept). */
export function readSettingsPatch(db: Db): SettingsPatch {
  const raw = readMeta(db, SETTINGS_META_KEY);
  return raw === undefined ? {} : (JSON.parse(raw) as SettingsPatch);
}
