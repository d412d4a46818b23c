import { openAsBlob, statSync } from "node:fs";
import { basename } from "node:path";
import type { MsgctlClient } from "../../client/client.js";
import type { AttachmentResource } from "../../contract/index.js";
import type { Output } from "../output.js";
import { startProgress } from "../progress.js";
import { UsageError } from "../usage-error.js";

const MiB = 1024 * 1024;

/** Bytes for people. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MiB) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / MiB).toFixed(1)} MiB`;
}

/** The size of a file to upload; a usage error (exit 2) when it is missing or not a file. */
function sizeOf(path: string): number {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new UsageError(`${path}: no such file`);
  }
  if (!stat.isFile()) throw new UsageError(`${path}: not a file`);
  return stat.size;
}

/**
 * Uploads local files (POST /v1/attachments), streamed from disk. Progress: a spinner with the
 * percentage on a terminal (progress.ts); elsewhere, for uploads of 1 MiB or more, a plain line on
 * stderr at the start, at each quarter and at the end. stdout is left to the command's result.
 */
export async function uploadFiles(client: MsgctlClient, paths: string[], out: Output): Promise<AttachmentResource[]> {
  if (paths.length === 0) throw new UsageError("Name at least one file to upload");
  if (paths.length > 10) throw new UsageError(`At most 10 files per upload (got ${paths.length})`);
  const total = paths.reduce((sum, path) => sum + sizeOf(path), 0);
  const files = await Promise.all(
    paths.map(async (path) => ({ filename: basename(path), data: await openAsBlob(path) })),
  );
  const what = paths.length === 1 ? basename(paths[0] as string) : `${paths.length} files`;
  const label = `Uploading ${what} (${formatSize(total)})`;

  const progress = out.interactive && !out.json ? startProgress(out, label) : undefined;
  const plain = !progress && total >= MiB;
  if (plain) out.note(`${label}…`);
  let quarter = 0;
  let shown = -1;
  try {
    const attachments = await client.attachments.upload(files, {
      onProgress(sent) {
        const percent = total === 0 ? 100 : Math.floor((sent / total) * 100);
        // Every 5 %: a terminal without a width gets a line per update.
        if (progress && percent >= shown + 5) {
          shown = percent - (percent % 5);
          progress.update(`${label} ${shown}%`);
        } else if (plain && percent >= (quarter + 1) * 25 && percent < 100) {
          quarter = Math.floor(percent / 25);
          out.note(`  ${percent}%`);
        }
      },
    });
    if (progress) progress.succeed(`Uploaded ${what} (${formatSize(total)})`);
    else if (plain) out.note(`Uploaded ${what}`);
    return attachments;
  } catch (error) {
    progress?.fail();
    throw error;
  }
}
