import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

/**
 * What the single binary (Node's Single Executable Applications, `npm run build:binary`) carries
 * besides its code: assets such as the shipped fixture, and the native addons that cannot live
 * inside a JavaScript bundle. Outside the binary every function here answers "not in a binary".
 */

const require = createRequire(import.meta.url);

interface SeaModule {
  isSea(): boolean;
  getRawAsset(name: string): ArrayBuffer;
}

let sea: SeaModule | null | undefined;

function seaModule(): SeaModule | null {
  if (sea === undefined) {
    try {
      const loaded = require("node:sea") as SeaModule;
      sea = loaded.isSea() ? loaded : null;
    } catch {
      sea = null;
    }
  }
  return sea;
}

/** True when running as the single binary. */
export function isSingleBinary(): boolean {
  return seaModule() !== null;
}

/** An asset the binary carries, or undefined outside the binary (or when it carries no such asset). */
export function binaryAsset(name: string): Buffer | undefined {
  const module = seaModule();
  if (!module) return undefined;
  try {
    return Buffer.from(module.getRawAsset(name));
  } catch {
    return undefined;
  }
}

/** Where extracted native parts live: one folder per content hash, so a new binary never reuses an old one. */
function cacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME || (homedir() ? join(homedir(), ".cache") : tmpdir());
  return join(base, "msgctl", "native");
}

/** Writes `bytes` once under the cache, keyed by their hash; returns the file's path. */
function extractOnce(name: string, bytes: Buffer): string {
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
  const dir = join(cacheRoot(), hash);
  const path = join(dir, name);
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true });
    // Written beside, then renamed: two binaries starting at once never load a half-written file.
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, bytes, { mode: 0o755 });
    renameSync(partial, path);
  }
  return path;
}

/**
 * The SQLite addon for better-sqlite3's `nativeBinding` option: inside the binary, the carried
 * `better_sqlite3.node` loaded with `process.dlopen` from the cache; outside it, undefined (the
 * package finds its own addon).
 */
export function sqliteAddon(): object | undefined {
  const bytes = binaryAsset("better_sqlite3.node");
  if (!bytes) return undefined;
  const module = { exports: {} as object };
  process.dlopen(module, extractOnce("better_sqlite3.node", bytes));
  return module.exports;
}
