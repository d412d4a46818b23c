// Bundles the CLI and the library entry with esbuild, dependencies included: loading one file
// instead of hundreds of small ESM modules is most of msgctl's start-up time (bench/HISTORY.md).
// better-sqlite3 and sharp stay external: their native addons cannot be bundled.
//
// The CLI (bin/msgctl) is two CommonJS files, as in the single binary (scripts/sea-bundles.mjs):
// dist/client.cjs, loaded by every command, and dist/sandbox.cjs, loaded only by the commands that
// run or build a sandbox. One file through Node's synchronous CommonJS loader costs a client
// command less than the twenty-odd ES module chunks it loaded before (bench/HISTORY.md).
import { readFileSync, rmSync } from "node:fs";
import { build } from "esbuild";
import { buildInspector } from "./build-inspector.mjs";
import { buildSeaBundles } from "./sea-bundles.mjs";
import { NODE_ESM_BUNDLE, migratedSchemaScript, parsedDefaultFixture } from "./default-fixture.mjs";

// Stale chunks and the CLI's ES module entry of earlier builds would be loaded by nothing.
for (const stale of ["dist/chunks", "dist/cli.js", "dist/cli.js.map"]) rmSync(stale, { recursive: true, force: true });

const define = {
  __MSGCTL_VERSION__: JSON.stringify(JSON.parse(readFileSync("package.json", "utf8")).version),
  __MSGCTL_DEFAULT_FIXTURE__: JSON.stringify(await parsedDefaultFixture()),
  __MSGCTL_SCHEMA_SCRIPT__: JSON.stringify(await migratedSchemaScript()),
};

await build({
  entryPoints: { index: "src/index.ts" },
  outdir: "dist",
  ...NODE_ESM_BUNDLE,
  sourcemap: true,
  // Less to parse at every start, names kept as written: esbuild's `keepNames` (needed once
  // names are mangled) wraps every function it creates in a `__name` call that redefines the
  // function's name, inner closures at every call included, which cost a tenth of an `advance`
  // (bench/HISTORY.md, fourth pass). Unmangled names need no such call and read well in stack traces.
  minifySyntax: true,
  minifyWhitespace: true,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  define,
  logLevel: "warning",
});

await buildSeaBundles({ outdir: "dist", define, node: true });

// The inspector page (src/inspector): the server serves it from dist/inspector.
await buildInspector();
