import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Where the single binary writes the native parts it carries (a native addon must be a file to be
 * loaded): `~/.cache/msgctl/native/<build>/`, one folder per build of those parts, named by their
 * hash at build time (`native-id`). Only the running binary's folder is kept: a binary removes
 * the folders of other builds when it first needs its own, except those another running msgctl
 * marks as in use (`.in-use.<pid>`, removed at exit; a marker whose process is gone counts for
 * nothing). A folder is renamed away before it is deleted, so no binary ever sees half of one;
 * a binary whose folder vanished anyway (a race, a user's `rm`) writes it again (`withNativeDir`).
 */

/** The cache's root: `$XDG_CACHE_HOME/msgctl/native`, else `~/.cache/msgctl/native`. */
function nativeCacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME || (homedir() ? join(homedir(), ".cache") : tmpdir());
  return join(base, "msgctl", "native");
}

/** Folders of this process's own making, left half-done or being removed: `<name>.<pid>.partial|removing`. */
const TRANSIENT = /\.(\d+)\.(?:partial|removing)$/;
/** A running msgctl's mark on the folder it uses. */
const IN_USE = /^\.in-use\.(\d+)$/;

/** True when a process with this id runs (a process of another user counts as running). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** True when a live process other than this one marks the folder as in use. */
function inUse(dir: string): boolean {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  return names.some((name) => {
    const pid = Number(IN_USE.exec(name)?.[1]);
    return pid > 0 && pid !== process.pid && alive(pid);
  });
}

/** Removes every folder of the cache but `keep` and those in use. Never throws: a cache is not worth failing for. */
function pruneOtherBuilds(root: string, keep: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    if (name === keep) continue;
    const transient = TRANSIENT.exec(name);
    if (transient && alive(Number(transient[1]))) continue;
    const dir = join(root, name);
    if (!transient && inUse(dir)) continue;
    try {
      const doomed = transient ? dir : `${dir}.${process.pid}.removing`;
      if (doomed !== dir) renameSync(dir, doomed);
      rmSync(doomed, { recursive: true, force: true });
    } catch {
      // Another binary removed or renamed it first, or a file in it is busy (Windows): next time.
    }
  }
}

const marked = new Set<string>();

/**
 * This build's folder, made if missing, marked as in use by this process until it exits; the
 * first call in a process also removes other builds' folders.
 */
function nativeDir(id: string): string {
  const root = nativeCacheRoot();
  const dir = join(root, id);
  mkdirSync(dir, { recursive: true });
  if (!marked.has(dir)) {
    marked.add(dir);
    const marker = join(dir, `.in-use.${process.pid}`);
    writeFileSync(marker, "");
    process.once("exit", () => rmSync(marker, { force: true }));
    pruneOtherBuilds(root, id);
  } else if (!existsSync(join(dir, `.in-use.${process.pid}`))) {
    writeFileSync(join(dir, `.in-use.${process.pid}`), "");
  }
  return dir;
}

/**
 * Runs `use` on this build's folder; if it fails because the folder's files vanished meanwhile
 * (removed by a binary of another build in the moment between our check and our load), writes
 * them again and tries once more.
 */
export function withNativeDir<T>(id: string, use: (dir: string) => T): T {
  try {
    return use(nativeDir(id));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (
      code !== "ENOENT" &&
      code !== "MODULE_NOT_FOUND" &&
      !/no such file|cannot open shared object/i.test(String(error))
    )
      throw error;
    return use(nativeDir(id));
  }
}
