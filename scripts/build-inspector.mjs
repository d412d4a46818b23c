// Bundles the inspector (src/inspector, a Preact page) into dist/inspector: one JS file, one CSS
// file, both named by their content hash so they can be cached for good, and index.html naming
// them. Nothing is loaded from elsewhere at run time: no CDN, no web fonts.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { build } from "esbuild";

const ROOT = resolve(import.meta.dirname, "..");
const SOURCE = join(ROOT, "src/inspector");
const OUT = join(ROOT, "dist/inspector");

/** Builds dist/inspector; returns the names of the files written. */
export async function buildInspector() {
  rmSync(OUT, { recursive: true, force: true });
  const result = await build({
    entryPoints: { app: join(SOURCE, "main.tsx") },
    outdir: OUT,
    entryNames: "[name]-[hash]",
    bundle: true,
    platform: "browser",
    format: "esm",
    target: ["chrome111", "firefox111", "safari16.4"],
    jsx: "automatic",
    jsxImportSource: "preact",
    tsconfig: join(SOURCE, "tsconfig.json"),
    minify: true,
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
  });
  const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path));
  const script = outputs.find((name) => name.endsWith(".js"));
  const style = outputs.find((name) => name.endsWith(".css"));
  if (!script || !style)
    throw new Error(`the inspector build made ${outputs.join(", ")}: expected one .js and one .css`);
  const html = readFileSync(join(SOURCE, "index.html"), "utf8")
    .replaceAll("%SCRIPT%", script)
    .replaceAll("%STYLE%", style);
  writeFileSync(join(OUT, "index.html"), html);
  return ["index.html", script, style];
}

// Run directly: `node scripts/build-inspector.mjs`.
if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename)
  console.log((await buildInspector()).join("\n"));
