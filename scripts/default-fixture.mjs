// The shipped fixture, validated once at build time instead of at every start: the builds embed
// the parsed result (src/runtime/fixture-source.ts reads it). Parsing it at start-up cost about
// 14 ms of `msgctl serve`'s start, most of it libphonenumber compiling its patterns on first use.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const ROOT = resolve(import.meta.dirname, "..");

/** esbuild's options for msgctl's code as Node ESM (dist/ and the build-time fixture parse alike). */
export const NODE_ESM_BUNDLE = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Native addons cannot be bundled.
  external: ["better-sqlite3", "sharp"],
  // Some dependencies are CommonJS and call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __msgctlCreateRequire } from 'node:module'; const require = __msgctlCreateRequire(import.meta.url);",
  },
};

/** fixtures/default.json parsed by the same code that parses every fixture; throws if it is invalid. */
export async function parsedDefaultFixture() {
  const bundled = await build({
    stdin: {
      contents: 'export { parseFixtureText } from "./src/domain/control/index.ts";',
      resolveDir: ROOT,
      loader: "ts",
    },
    ...NODE_ESM_BUNDLE,
    write: false,
    logLevel: "warning",
  });
  // Written beside the sources' node_modules so the bundle's external imports resolve.
  const dir = mkdtempSync(join(tmpdir(), "msgctl-fixture-"));
  const file = join(dir, "parse-fixture.mjs");
  try {
    writeFileSync(file, bundled.outputFiles[0].contents);
    const { parseFixtureText } = await import(pathToFileURL(file).href);
    return parseFixtureText(readFileSync(join(ROOT, "fixtures/default.json"), "utf8"), "fixtures/default.json");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
