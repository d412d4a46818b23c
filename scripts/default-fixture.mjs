// The shipped fixture, validated once at build time instead of at every start: the builds embed
// the parsed result (src/runtime/fixture-source.ts reads it). Parsing it at start-up cost about
// 14 ms of `msgctl serve`'s start, most of it libphonenumber compiling its patterns on first use.
// Likewise the schema the migrations leave in a new database, as one script
// (src/store/engine/migrations/schema-script.ts): a new database takes it in one exec.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { phoneMetadataAsJson, zodEnglishOnly } from "./bundle-plugins.mjs";

const ROOT = resolve(import.meta.dirname, "..");

/** esbuild's options for msgctl's code as Node ESM (dist/ and the build-time fixture parse alike). */
export const NODE_ESM_BUNDLE = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Native addons cannot be bundled.
  external: ["better-sqlite3", "sharp"],
  plugins: [zodEnglishOnly, phoneMetadataAsJson],
  // Some dependencies are CommonJS and call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __msgctlCreateRequire } from 'node:module'; const require = __msgctlCreateRequire(import.meta.url);",
  },
};

/** Runs `name` of the module `contents` (msgctl's sources, bundled as dist/ is) with `args`. */
async function runBundled(contents, name, ...args) {
  const bundled = await build({
    stdin: { contents, resolveDir: ROOT, loader: "ts" },
    ...NODE_ESM_BUNDLE,
    write: false,
    logLevel: "warning",
  });
  // Written beside the sources' node_modules so the bundle's external imports resolve.
  const dir = mkdtempSync(join(ROOT, "node_modules/.msgctl-build-"));
  const file = join(dir, "bundled.mjs");
  try {
    writeFileSync(file, bundled.outputFiles[0].contents);
    return await (await import(pathToFileURL(file).href))[name](...args);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** fixtures/default.json parsed by the same code that parses every fixture; throws if it is invalid. */
export function parsedDefaultFixture() {
  return runBundled(
    'export { parseFixtureText } from "./src/domain/control/index.ts";',
    "parseFixtureText",
    readFileSync(join(ROOT, "fixtures/default.json"), "utf8"),
    "fixtures/default.json",
  );
}

/** What every migration leaves in a new database, as one SQL script (src/store/engine/migrations/schema-script.ts). */
export function migratedSchemaScript() {
  return runBundled(
    'export { migratedSchemaScript } from "./src/store/engine/migrations/schema-script.ts";',
    "migratedSchemaScript",
  );
}
