import type { SettingsPatch, SettingsView } from "../../contract/index.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { details, type Output } from "../output.js";
import { UsageError } from "../usage-error.js";

/** Each setting on a line of its own, nested ones by their dotted key (`media_cap_bytes.sms`). */
function settingLines(out: Output, settings: SettingsView): string[] {
  const flat = (value: unknown, key: string): [string, unknown][] =>
    value !== null && typeof value === "object"
      ? Object.entries(value).flatMap(([inner, v]) => flat(v, `${key}.${inner}`))
      : [[key, value]];
  return details(
    out.color,
    Object.entries(settings).flatMap(([key, value]) => flat(value, key)),
  );
}

/** `msgctl settings`: every setting of the simulated world with its current value. */
export async function settingsShow(options: ConnectionFlags, out: Output): Promise<SettingsView> {
  const settings = await connect(options).settings.get();
  out.result(settings, (s) => settingLines(out, s));
  return settings;
}

/** VALUE as the command line gives it: JSON when it parses (`1000`, `true`, `null`, `{"sms":1}`), else the text itself. */
export function settingValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `media_cap_bytes.sms` and its value as the patch that sets it: `{ media_cap_bytes: { sms: value } }`. */
export function settingPatch(key: string, value: unknown): SettingsPatch {
  const path = key.split(".");
  if (path.some((part) => part === ""))
    throw new UsageError(`KEY: "${key}" is not a setting's name (e.g. send_latency_ms, media_cap_bytes.sms)`);
  // Computed keys: a part named __proto__ is an own field (refused by the sandbox), never the prototype.
  return path.reduceRight<unknown>((inner, part) => ({ [part]: inner }), value) as SettingsPatch;
}

/**
 * `msgctl settings set KEY VALUE`: changes one setting (a dotted key reaches into a nested one);
 * work scheduled afterwards follows it. The sandbox refuses an unknown key or a bad value by name.
 */
export async function settingsSet(
  key: string,
  value: string,
  options: ConnectionFlags,
  out: Output,
): Promise<SettingsView> {
  const settings = await connect(options).settings.update(settingPatch(key, settingValue(value)));
  out.result(settings, (s) => settingLines(out, s));
  return settings;
}
