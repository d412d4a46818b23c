import type { SettingsPatch, SettingsView } from "../contract/index.js";
import type { HttpClient } from "./http.js";

/** The simulated world's settings (control API): latencies, media caps, limits, strict URLs. */
export function settingsClient(http: HttpClient) {
  return {
    /** GET /sandbox/v1/settings: every setting with its current value. */
    get: async () => (await http.request<SettingsView>("messaging", "GET", "/sandbox/v1/settings")).data,
    /**
     * PATCH /sandbox/v1/settings: any subset (`{ send_latency_ms: 1000 }`, `{ media_cap_bytes: { sms: 2_000_000 } }`);
     * work scheduled afterwards follows it. Answers every setting after the change.
     */
    update: async (patch: SettingsPatch) =>
      (await http.request<SettingsView>("messaging", "PATCH", "/sandbox/v1/settings", { body: patch })).data,
  };
}
