import { createRequire } from "node:module";

/** Set by the builds (scripts/build.mjs, build-binary.mjs); absent when running the sources. */
declare const __MSGCTL_VERSION__: string | undefined;
/** Set by the single binary's build: the commit it was built from. */
declare const __MSGCTL_COMMIT__: string | undefined;

/** The first of `paths` (relative to this module or the bundle chunk it landed in) that loads. */
function loadFirst<T>(paths: string[]): T | undefined {
  const require = createRequire(import.meta.url);
  for (const path of paths) {
    try {
      return require(path) as T;
    } catch {
      // try the other layout
    }
  }
  return undefined;
}

/** msgctl's version: set at build time, else read from package.json (the sources under tsx or vitest). */
export function packageVersion(): string {
  if (typeof __MSGCTL_VERSION__ === "string") return __MSGCTL_VERSION__;
  return loadFirst<{ version: string }>(["../package.json", "../../package.json"])?.version ?? "0.0.0";
}

/**
 * The commit msgctl was built from (`-dirty` when it had uncommitted changes), or `unknown`: the
 * binary carries it; dist/ keeps it in build-info.json, which `prepare` brings up to date without
 * rebuilding when only the commit moved.
 */
function buildCommit(): string {
  if (typeof __MSGCTL_COMMIT__ === "string") return __MSGCTL_COMMIT__;
  // dist/ first: the CLI's bundles are where this module lands, and a miss costs a throw.
  return loadFirst<{ commit: string }>(["./build-info.json", "../build-info.json"])?.commit ?? "unknown";
}

/** What `msgctl --version` prints: `0.1.0 (commit 1a2b3c4d5e6f)`. */
export function versionLine(): string {
  return `${packageVersion()} (commit ${buildCommit()})`;
}
