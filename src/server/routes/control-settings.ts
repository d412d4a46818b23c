import { settingsPatch, settingsView } from "../../contract/settings.js";
import { getSettings, updateSettings } from "../../domain/control/index.js";
import { ok, type Route } from "../route.js";

const TAG = "Sandbox: settings";

/** The simulated world's settings under /sandbox/v1 (docs/control-api.md, "Settings"). */
export const controlSettingsRoutes: Route[] = [
  {
    method: "GET",
    path: "/sandbox/v1/settings",
    doc: {
      tag: TAG,
      summary: "The settings in force",
      description:
        "Every setting with its current value. They are kept in the database: a restart keeps them, a snapshot holds them, a reset goes back to the fixture's.",
      responses: { 200: { description: "every setting", schema: settingsView } },
    },
    handler: ({ ctx }) => ok(getSettings(ctx)),
  },
  {
    method: "PATCH",
    path: "/sandbox/v1/settings",
    doc: {
      tag: TAG,
      summary: "Change settings",
      description:
        "Any subset; media_cap_bytes merges with the caps in force. Work scheduled afterwards follows the new values; jobs already scheduled keep their times. A bad key or value is 400 invalid_request naming it, and nothing changes.",
      body: settingsPatch,
      bodyOptional: true,
      responses: { 200: { description: "every setting, after the change", schema: settingsView } },
    },
    async handler({ ctx, json }) {
      return ok(updateSettings(ctx, await json()));
    },
  },
];
