import { openAsBlob, statSync } from "node:fs";
import { open, rename, rm, type FileHandle } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ChalkInstance } from "chalk";
import { ConnectionError } from "../../client/http.js";
import { SNAPSHOT_NAME } from "../../contract/names.js";
import type { DeletedSnapshot, RestoredSnapshot, SnapshotView } from "../../contract/index.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { table, type Output } from "../output.js";
import { cannotWrite, openOutputPathAsync } from "../output-file.js";
import { UsageError } from "../usage-error.js";
import { formatSize } from "./upload-files.js";

/** What `snapshot export` names a file by default, and what `snapshot import` strips from a file's name. */
export const SNAPSHOT_FILE_SUFFIX = ".msgctl-snapshot";

/** One snapshot on a line: its name, when it was saved, the sandbox's clock then, its size. */
function snapshotsTable(color: ChalkInstance, list: SnapshotView[]): string[] {
  return table(
    color,
    ["NAME", "SAVED", "CLOCK", "SIZE", "MSGCTL"],
    list.map((s) => [
      s.problem ? color.red(s.name) : s.name,
      s.saved_at,
      `${s.clock.now} (${s.clock.mode})`,
      formatSize(s.size_bytes),
      s.problem ? `${s.msgctl_version} ${color.red(`(${s.problem})`)}` : s.msgctl_version,
    ]),
  );
}

/** `msgctl snapshot save NAME`: the whole sandbox as it is, under NAME (a snapshot of that name is replaced). */
export async function snapshotSave(name: string, options: ConnectionFlags, out: Output): Promise<SnapshotView> {
  const saved = await connect(options).snapshots.save(name);
  out.result(saved, (s) => `Saved snapshot ${s.name} (${formatSize(s.size_bytes)}, clock ${s.clock.now})`);
  return saved;
}

/** `msgctl snapshot restore NAME`: the whole sandbox replaced by the snapshot, every account included. */
export async function snapshotRestore(name: string, options: ConnectionFlags, out: Output): Promise<RestoredSnapshot> {
  const restored = await connect(options).snapshots.restore(name);
  out.result(restored, (r) => [
    out.color.green(`Restored snapshot ${r.snapshot.name}`) + ` (saved ${r.snapshot.saved_at}); clock ${r.clock.now}`,
    ...table(
      out.color,
      ["ACCOUNT", "API KEY", "OTP KEY", "NUMBERS"],
      r.accounts.map((a) => [
        a.name,
        a.api_key ?? out.color.dim("(not known here)"),
        a.otp_api_key ?? out.color.dim("(not known here)"),
        a.numbers.map((n) => n.handle).join(", "),
      ]),
    ),
  ]);
  return restored;
}

/** `msgctl snapshot list`: every snapshot of the running sandbox, by name. */
export async function snapshotList(options: ConnectionFlags, out: Output): Promise<SnapshotView[]> {
  const list = await connect(options).snapshots.list();
  out.result(list, (l) => snapshotsTable(out.color, l));
  return list;
}

/** `msgctl snapshot delete NAME`. */
export async function snapshotDelete(name: string, options: ConnectionFlags, out: Output): Promise<DeletedSnapshot> {
  const deleted = await connect(options).snapshots.delete(name);
  out.result(deleted, (d) => `Deleted snapshot ${d.name}`);
  return deleted;
}

/**
 * `msgctl snapshot export NAME -o FILE`: the snapshot as one file (folders made). It is written
 * beside FILE and renamed into place once whole, so an export cut short never leaves a broken file
 * nor destroys an earlier one.
 */
export async function snapshotExport(
  name: string,
  options: ConnectionFlags & { output: string },
  out: Output,
): Promise<SnapshotView> {
  const client = connect(options);
  const target = resolve(options.output);
  const response = await client.snapshots.export(name);
  const partial = join(dirname(target), `.${basename(target)}.${process.pid}.partial`);
  let file: FileHandle;
  try {
    file = await openOutputPathAsync(options.output, "-o", () => open(partial, "w"));
  } catch (error) {
    await response.body?.cancel();
    throw error;
  }
  try {
    await pipeline(
      Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>),
      file.createWriteStream(),
    );
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    // The disk refused (full, say): a file system error has a code; a body cut off has none.
    if ((error as NodeJS.ErrnoException).code !== undefined) throw cannotWrite(options.output, "-o", error);
    throw new ConnectionError(
      new URL(response.url || "http://sandbox").origin,
      new Error("the sandbox went away while sending the snapshot"),
    );
  }
  const snapshot = await client.snapshots.get(name);
  out.result(snapshot, (s) => `Exported snapshot ${s.name} to ${options.output} (${formatSize(s.size_bytes)})`);
  return snapshot;
}

/** The name an imported file is kept under without --name: its file name, less `.msgctl-snapshot`. */
export function importedName(path: string): string {
  const file = basename(path);
  const name = file.endsWith(SNAPSHOT_FILE_SUFFIX) ? file.slice(0, -SNAPSHOT_FILE_SUFFIX.length) : file;
  if (!SNAPSHOT_NAME.test(name)) {
    throw new UsageError(
      `${path}: its file name is not a snapshot name (1 to 64 letters, digits, dots, dashes or underscores); give one with --name`,
    );
  }
  return name;
}

/** `msgctl snapshot import FILE [--name NAME]`: an exported snapshot kept by the running sandbox. */
export async function snapshotImport(
  path: string,
  options: ConnectionFlags & { name?: string },
  out: Output,
): Promise<SnapshotView> {
  const name = options.name ?? importedName(path);
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch {
    throw new UsageError(`${path}: no such file`);
  }
  if (!isFile) throw new UsageError(`${path}: not a file`);
  const imported = await connect(options).snapshots.import(name, await openAsBlob(path));
  out.result(imported, (s) => `Imported snapshot ${s.name} from ${path} (${formatSize(s.size_bytes)})`);
  return imported;
}
