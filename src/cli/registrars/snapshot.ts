import type { Command } from "@commander-js/extra-typings";
import { action } from "../action.js";

/** `msgctl snapshot save|restore|list|delete|export|import`: the whole sandbox, kept and brought back. */
export function registerSnapshotCommands(program: Command): void {
  const commands = () => import("../commands/snapshot.js");
  const snapshot = program
    .command("snapshot")
    .description("save the whole sandbox under a name and restore it later (before each test, say)");
  snapshot
    .command("save <name>")
    .description(
      "save the whole sandbox (accounts and keys, messages, webhooks, pending retries, jobs, the clock…) under NAME; a snapshot of that name is replaced once the new one is complete",
    )
    .action(action(commands, "snapshotSave"));
  snapshot
    .command("restore <name>")
    .description(
      "replace the whole sandbox, every account included, by the snapshot NAME; a manual clock goes back to its time",
    )
    .action(action(commands, "snapshotRestore"));
  snapshot.command("list").description("every snapshot, by name").action(action(commands, "snapshotList"));
  snapshot.command("delete <name>").description("delete the snapshot NAME").action(action(commands, "snapshotDelete"));
  snapshot
    .command("export <name>")
    .description("write the snapshot NAME to one file, to keep, share or start `serve --restore FILE` from")
    .requiredOption("-o, --output <file>", "where to write (folders made)")
    .action(action(commands, "snapshotExport"));
  snapshot
    .command("import <file>")
    .description("keep an exported snapshot file in the running sandbox (written by this msgctl or an older one)")
    .option("--name <name>", "the name to keep it under (default: the file's name without .msgctl-snapshot)")
    .action(action(commands, "snapshotImport"));
}
