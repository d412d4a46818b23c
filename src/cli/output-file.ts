import { mkdirSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { UsageError } from "./usage-error.js";

/**
 * Every file a command writes (`init -o`, `attachments download -o`, `serve --log-file`) goes
 * through here: its folders are made first, as `curl --create-dirs`, `tar -C` and most tools a
 * user knows do, and a path that still cannot be written is a usage error naming it (exit 2),
 * never a crash.
 */

/** Why a file cannot be written, in a few words. */
const WRITE_FAILURES: Record<string, string> = {
  ENOENT: "no such directory",
  ENOTDIR: "a part of the path is not a directory",
  EEXIST: "a part of the path is a file",
  EISDIR: "is a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  ENXIO: "a named pipe nobody reads",
};

/** The usage error for `path` (given as `flag`) that `error` says cannot be written. */
export function cannotWrite(path: string, flag: string | undefined, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code ?? "";
  return new UsageError(
    `${flag ? `${flag} ` : ""}${path}: cannot write there (${WRITE_FAILURES[code] ?? (code || (error as Error).message)})`,
  );
}

/** Makes the folders of `path`, then runs `open` (which opens or writes it); errors name the path. */
export function openOutputPath<T>(path: string, flag: string | undefined, open: () => T): T {
  try {
    mkdirSync(dirname(resolve(path)), { recursive: true });
    return open();
  } catch (error) {
    throw cannotWrite(path, flag, error);
  }
}

/** `openOutputPath` for an asynchronous `open`. */
export async function openOutputPathAsync<T>(
  path: string,
  flag: string | undefined,
  open: () => Promise<T>,
): Promise<T> {
  try {
    await mkdir(dirname(resolve(path)), { recursive: true });
    return await open();
  } catch (error) {
    throw cannotWrite(path, flag, error);
  }
}

/** Writes a whole text file (folders made), or throws a usage error naming it. */
export function writeOutputFile(path: string, flag: string | undefined, text: string): void {
  openOutputPath(path, flag, () => writeFileSync(path, text));
}
