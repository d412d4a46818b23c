import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/** One built file of the inspector, ready to serve. */
export interface InspectorFile {
  body: Buffer;
  /** The same bytes gzipped, for clients that accept it (made once, on first use). */
  gzipped(): Buffer;
  contentType: string;
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/** A file name the build makes: `index.html`, `app-<hash>.js`, `app-<hash>.css`; nothing with a path in it. */
const FILE_NAME = /^[a-z]+(?:-[A-Z0-9]+)?\.(?:html|js|css)$/;

/**
 * The folder `npm run build` writes the page to (scripts/build-inspector.mjs): found from this
 * module, which runs from src/server (tests, tsx), from dist/ or from dist/chunks (the package).
 */
function distFolder(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 4; depth++) {
    const candidates = basename(dir) === "dist" ? [join(dir, "inspector")] : [join(dir, "dist", "inspector")];
    for (const candidate of candidates) if (existsSync(join(candidate, "index.html"))) return candidate;
    dir = dirname(dir);
  }
  return undefined;
}

interface SeaAssets {
  isSea(): boolean;
  getRawAsset(name: string): ArrayBuffer;
}

/** The single binary's assets (`inspector/<name>`, scripts/build-binary.mjs), or null outside it. */
function seaAssets(): SeaAssets | null {
  try {
    const sea = createRequire(import.meta.url)("node:sea") as SeaAssets;
    return sea.isSea() ? sea : null;
  } catch {
    return null;
  }
}

/** Reads the inspector's built files: the single binary's assets inside it, else dist/inspector. */
export function createInspectorFiles(): (name: string) => InspectorFile | undefined {
  const cache = new Map<string, InspectorFile>();
  let source: ((name: string) => Buffer | undefined) | undefined;
  const read = (name: string) => {
    if (!source) {
      const sea = seaAssets();
      const folder = sea ? undefined : distFolder();
      source = sea
        ? (file) => Buffer.from(sea.getRawAsset(`inspector/${file}`))
        : (file) => (folder ? readFileSync(join(folder, file)) : undefined);
    }
    try {
      return source(name);
    } catch {
      return undefined;
    }
  };
  return (name) => {
    if (!FILE_NAME.test(name)) return undefined;
    const cached = cache.get(name);
    if (cached) return cached;
    const body = read(name);
    if (!body) return undefined;
    let gzipped: Buffer | undefined;
    const file: InspectorFile = {
      body,
      gzipped: () => (gzipped ??= gzipSync(body, { level: 9 })),
      contentType: CONTENT_TYPES[name.slice(name.lastIndexOf("."))] ?? "application/octet-stream",
    };
    // Hashed names never change content; index.html is read afresh so a rebuild shows at once.
    if (name !== "index.html") cache.set(name, file);
    return file;
  };
}
