import type { Command } from "@commander-js/extra-typings";
import { action } from "../action.js";

/** `msgctl settings` and `settings set KEY VALUE`: the simulated world's settings. */
export function registerSettingsCommands(program: Command): void {
  const commands = () => import("../commands/settings.js");
  const settings = program
    .command("settings")
    .description("show the simulated world's settings (latencies, media caps, limits); `settings set` changes one")
    .action(action(commands, "settingsShow"));
  settings
    .command("set <key> <value>")
    .description(
      "change a setting: KEY as `msgctl settings` lists it (dotted for nested ones: media_cap_bytes.sms), VALUE read as JSON when it parses, else as text",
    )
    .addHelpText(
      "after",
      "\nExamples:\n  msgctl settings set send_latency_ms 1000\n  msgctl settings set media_cap_bytes.sms 2000000\n  msgctl settings set ffmpeg_path null\n  msgctl settings set strict_urls true",
    )
    .action(action(commands, "settingsSet"));
}
