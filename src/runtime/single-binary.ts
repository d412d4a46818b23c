import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { WorkerSqlite } from "../store/engine/index.js";

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

/**
 * How a worker thread loads better-sqlite3 inside the binary (the WAL's checkpoint worker,
 * store/engine/checkpointer.ts): a worker cannot reach the binary's bundle, so it runs the module's own
 * source, bundled at build time (the `better-sqlite3.cjs` asset), with the extracted addon.
 * Undefined outside the binary (the worker resolves the package itself) or without the asset.
 */
export function binaryWorkerSqlite(): WorkerSqlite | undefined {
  const source = binaryAsset("better-sqlite3.cjs");
  const addon = binaryAsset("better_sqlite3.node");
  if (!source || !addon) return undefined;
  return { source: source.toString("utf8"), nativeBinding: extractOnce("better_sqlite3.node", addon) };
}

/**
 * A package the binary carries on disk rather than in its bundle (sharp: a native addon with
 * libvips beside it). Its files, with their dependencies', ride in the `packages.bin` asset; they
 * are extracted once into the cache, under a folder keyed by their hash, and the package is loaded
 * from there with a real `require` (the binary's own reaches only Node's built-in modules).
 * Throws outside the binary, or when the binary does not carry the package.
 */
export function requireCarried(name: string): unknown {
  const archive = binaryAsset("packages.bin");
  if (!archive) throw new Error(`${name} is not carried by this binary`);
  const root = extractArchive(archive);
  return createRequire(join(root, "node_modules", "index.js"))(name);
}

/**
 * Unpacks `packages.bin` (built by scripts/build-binary.mjs): a 4-byte length, a JSON index of
 * `{ path, size, mode }`, then the files' bytes in index order. Done once per content hash; a
 * `.complete` marker written last says a folder is whole.
 */
function extractArchive(archive: Buffer): string {
  const hash = createHash("sha256").update(archive).digest("hex").slice(0, 16);
  const root = join(cacheRoot(), hash);
  if (existsSync(join(root, ".complete"))) return root;
  const indexLength = archive.readUInt32BE(0);
  const index = JSON.parse(archive.subarray(4, 4 + indexLength).toString("utf8")) as {
    path: string;
    size: number;
    mode: number;
  }[];
  let offset = 4 + indexLength;
  const staging = `${root}.${process.pid}.partial`;
  for (const file of index) {
    const target = join(staging, file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, archive.subarray(offset, offset + file.size), { mode: file.mode });
    offset += file.size;
  }
  writeFileSync(join(staging, ".complete"), "");
  try {
    renameSync(staging, root);
  } catch {
    // Another process finished first: its copy is as good.
    rmSync(staging, { recursive: true, force: true });
  }
  return root;
}
