import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { WorkerSqlite } from "../store/engine/index.js";
import { withNativeDir } from "./native-cache.js";

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

/**
 * The name of this binary's folder in the native cache (runtime/native-cache.ts): a hash of the
 * native parts it carries, computed at build time (the `native-id` asset).
 */
function nativeId(): string {
  return binaryAsset("native-id")?.toString("utf8").trim() || "unversioned";
}

/** Writes `bytes` once into this build's cache folder; `load` gets the file's path. */
function withExtracted<T>(name: string, bytes: Buffer, load: (path: string) => T): T {
  return withNativeDir(nativeId(), (dir) => {
    const path = join(dir, name);
    if (!existsSync(path)) {
      // Written beside, then renamed: two binaries starting at once never load a half-written file.
      const partial = `${path}.${process.pid}.partial`;
      writeFileSync(partial, bytes, { mode: 0o755 });
      renameSync(partial, path);
    }
    return load(path);
  });
}

/**
 * The SQLite addon for better-sqlite3's `nativeBinding` option: inside the binary, the carried
 * `better_sqlite3.node` loaded with `process.dlopen` from the cache; outside it, undefined (the
 * package finds its own addon).
 */
export function sqliteAddon(): object | undefined {
  const bytes = binaryAsset("better_sqlite3.node");
  if (!bytes) return undefined;
  return withExtracted("better_sqlite3.node", bytes, (path) => {
    const module = { exports: {} as object };
    process.dlopen(module, path);
    return module.exports;
  });
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
  return {
    source: source.toString("utf8"),
    nativeBinding: withExtracted("better_sqlite3.node", addon, (path) => path),
  };
}

/**
 * A package the binary carries on disk rather than in its bundle (sharp: a native addon with
 * libvips beside it). Its files, with their dependencies', ride in the `packages.bin` asset; they
 * are extracted once into the cache, under a folder keyed by their hash, and the package is loaded
 * from there with a real `require` (the binary's own reaches only Node's built-in modules).
 * Throws outside the binary, or when the binary does not carry the package. Called from the code
 * scripts/build-binary.mjs generates for `import("sharp")`, which knip cannot follow.
 * @public
 */
export function requireCarried(name: string): unknown {
  const archive = binaryAsset("packages.bin");
  if (!archive) throw new Error(`${name} is not carried by this binary`);
  return withNativeDir(nativeId(), (dir) =>
    createRequire(join(extractArchive(archive, dir), "node_modules", "index.js"))(name),
  );
}

/**
 * Unpacks `packages.bin` (built by scripts/build-binary.mjs) into `dir`/packages: a 4-byte length,
 * a JSON index of `{ path, size, mode }`, then the files' bytes in index order. Done once per
 * build; a `.complete` marker written last says the folder is whole.
 */
function extractArchive(archive: Buffer, dir: string): string {
  const root = join(dir, "packages");
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
