// Bundles the CLI and the library entry with esbuild, dependencies included: loading one file
// instead of hundreds of small ESM modules is most of msgctl's start-up time (bench/HISTORY.md).
// better-sqlite3 and sharp stay external: their native addons cannot be bundled.
import { readFileSync, rmSync } from "node:fs";
import { build } from "esbuild";
import { buildInspector } from "./build-inspector.mjs";
import { NODE_ESM_BUNDLE, migratedSchemaScript, parsedDefaultFixture } from "./default-fixture.mjs";

// Stale chunks from earlier builds would be loaded by nothing but still shipped.
rmSync("dist/chunks", { recursive: true, force: true });

await build({
  entryPoints: { cli: "src/cli/main.ts", index: "src/index.ts" },
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
  define: {
    __MSGCTL_VERSION__: JSON.stringify(JSON.parse(readFileSync("package.json", "utf8")).version),
    __MSGCTL_DEFAULT_FIXTURE__: JSON.stringify(await parsedDefaultFixture()),
    __MSGCTL_SCHEMA_SCRIPT__: JSON.stringify(await migratedSchemaScript()),
  },
  logLevel: "warning",
});

// The inspector page (src/inspector): the server serves it from dist/inspector.
await buildInspector();
