// What a build says about itself: the commit it was built from, for `msgctl --version`.
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");

/** The paths whose changes change what the builds make (uncommitted changes there mark a build `-dirty`). */
export const BUILD_INPUTS = [
  "src",
  "scripts",
  "fixtures",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
];

/**
 * The commit the checkout is at (12 hex digits), `-dirty` when a build input has uncommitted
 * changes, or `unknown` outside a git checkout (a copy of the sources, an unpacked tarball).
 */
export function buildCommit() {
  const git = (...args) =>
    execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  try {
    const commit = git("rev-parse", "--short=12", "HEAD");
    const dirty = git("status", "--porcelain", "--untracked-files=no", "--", ...BUILD_INPUTS) !== "";
    return dirty ? `${commit}-dirty` : commit;
  } catch {
    return "unknown";
  }
}
