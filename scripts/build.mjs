// Bundles the CLI and the library entry with esbuild. Dependencies stay external: they are
// installed next to msgctl, and better-sqlite3's native addon cannot be bundled.
import { build } from "esbuild";

await build({
  entryPoints: { cli: "src/cli/main.ts", index: "src/index.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  logLevel: "warning",
});
