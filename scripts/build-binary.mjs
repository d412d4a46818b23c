// Builds msgctl as one executable for this platform with Node's Single Executable Applications
// (TOOLCHAIN.md): esbuild bundles the CLI into two CommonJS files (the client commands', the
// sandbox's), each with a V8 code cache trained at build time, Node turns them into a blob, and postject injects the blob into a copy of the node binary. Native addons
// the shipped fixture and the inspector's page ride along as assets (src/runtime/single-binary.ts loads them).
//
//   npm run build:binary            → dist/bin/msgctl
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire, Module } from "node:module";
import { dirname, join, resolve } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { build } from "esbuild";
import { buildCommit } from "./build-info.mjs";
import { buildInspector } from "./build-inspector.mjs";
import { migratedSchemaScript, parsedDefaultFixture } from "./default-fixture.mjs";
import { buildSeaBundles, packageVersion } from "./sea-bundles.mjs";
import { trainCodeCaches } from "./train-code-cache.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const OUT = join(ROOT, "dist/bin");
const WORK = join(ROOT, "dist/sea");
const require = createRequire(import.meta.url);

rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
mkdirSync(OUT, { recursive: true });

// The bundles scripts/sea-loader.cjs runs: the client at every start, the sandbox when needed.
const BUNDLES = ["client", "sandbox"];

// Packages carried as files, not bundled: native addons with shared libraries beside them.
const CARRIED = ["sharp"];

/** The package and the dependencies it needs at run time (optional ones only where installed). */
function dependencyClosure(names) {
  const found = new Map();
  const visit = (name) => {
    if (found.has(name)) return;
    const dir = join(ROOT, "node_modules", name);
    if (!existsSync(join(dir, "package.json"))) return;
    found.set(name, dir);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    for (const dep of [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})])
      visit(dep);
  };
  names.forEach(visit);
  return found;
}

/**
 * Runs a build step and prints only what matters: nothing when it succeeds, except lines that are
 * not known noise; everything when it fails. The noise: postject's ELF parser warns
 * "Can't find string offset for section name '.note.100'" about each note section of node's
 * binary that has no name (a dozen of them); it injects the blob correctly all the same.
 */
function quietly(command, args) {
  const run = spawnSync(command, args, { encoding: "utf8" });
  const noise =
    /Can't find string offset for section name|^Wrote single executable preparation blob|^Injecting|^Start injection|^💉|^\s*$/;
  const output = `${run.stdout ?? ""}${run.stderr ?? ""}`;
  if (run.status !== 0) {
    process.stderr.write(output);
    throw new Error(`${[command, ...args].join(" ")} failed (${run.error?.message ?? `exit ${run.status}`})`);
  }
  // postject colours its lines even when they go to a pipe.
  const rest = output.split("\n").filter((line) => !noise.test(stripVTControlCharacters(line)));
  if (rest.length > 0) process.stderr.write(`${rest.join("\n")}\n`);
}

/** Every file under a folder, with paths relative to `base`. */
function filesUnder(dir, base) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, base);
    return entry.isFile() ? [{ path: path.slice(base.length + 1), full: path }] : [];
  });
}

/** packages.bin: a 4-byte index length, the JSON index, then the files (see single-binary.ts). */
function packCarried() {
  const files = [...dependencyClosure(CARRIED).values()].flatMap((dir) => filesUnder(dir, ROOT));
  const contents = files.map((file) => readFileSync(file.full));
  const index = Buffer.from(
    JSON.stringify(
      files.map((file, i) => ({ path: file.path, size: contents[i].length, mode: statSync(file.full).mode & 0o777 })),
    ),
  );
  const length = Buffer.alloc(4);
  length.writeUInt32BE(index.length);
  const out = join(WORK, "packages.bin");
  writeFileSync(out, Buffer.concat([length, index, ...contents]));
  return out;
}

/** esbuild: a carried package is loaded from the extracted files at run time. */
const carriedPackages = {
  name: "carried-packages",
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(${CARRIED.join("|")})$`) }, (args) => ({
      path: args.path,
      namespace: "carried",
    }));
    build.onLoad({ filter: /.*/, namespace: "carried" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(join(ROOT, "src/runtime/single-binary.ts"))}).requireCarried(${JSON.stringify(args.path)});`,
      resolveDir: ROOT,
      loader: "js",
    }));
  },
};

// --- 1. Two CommonJS files (scripts/sea-bundles.mjs) ---
// Inside the binary, require() reaches only Node's built-in modules: every dependency is bundled,
// and native addons are loaded from assets instead (better-sqlite3 gets its addon object).
await buildSeaBundles({
  outdir: WORK,
  define: {
    __MSGCTL_VERSION__: JSON.stringify(packageVersion()),
    __MSGCTL_COMMIT__: JSON.stringify(buildCommit()),
    __MSGCTL_DEFAULT_FIXTURE__: JSON.stringify(await parsedDefaultFixture()),
    __MSGCTL_SCHEMA_SCRIPT__: JSON.stringify(await migratedSchemaScript()),
  },
  plugins: [carriedPackages],
});

// better-sqlite3's own module, for worker threads (the WAL's checkpoint worker): a worker cannot
// reach the bundle above, so it runs this one with the addon (src/runtime/single-binary.ts).
await build({
  entryPoints: [require.resolve("better-sqlite3")],
  outfile: join(WORK, "better-sqlite3.cjs"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  // Loaded only when no addon is given; the worker always gives one.
  external: ["bindings"],
  minifySyntax: true,
  minifyWhitespace: true,
  logLevel: "warning",
});

// --- 2. The blob: a small loader, the bundles and their trained code caches, assets ---
// Each bundle is wrapped as a CommonJS module; scripts/sea-loader.cjs runs it with its cache.
for (const name of BUNDLES)
  writeFileSync(join(WORK, `${name}.js`), Module.wrap(readFileSync(join(WORK, `${name}.js`), "utf8")));
// The inspector's page rides as `inspector/<file>` assets (src/server/inspector-files.ts serves them).
const inspectorFiles = await buildInspector();
const assets = {
  ...Object.fromEntries(BUNDLES.map((name) => [`${name}.js`, join(WORK, `${name}.js`)])),
  "better_sqlite3.node": join(
    dirname(require.resolve("better-sqlite3/package.json")),
    "build/Release/better_sqlite3.node",
  ),
  "better-sqlite3.cjs": join(WORK, "better-sqlite3.cjs"),
  "default.json": join(ROOT, "fixtures/default.json"),
  "packages.bin": packCarried(),
  ...Object.fromEntries(inspectorFiles.map((name) => [`inspector/${name}`, join(ROOT, "dist/inspector", name)])),
};
// The native parts' folder in the user's cache is named by their hash (src/runtime/native-cache.ts).
const nativeHash = createHash("sha256");
for (const name of ["better_sqlite3.node", "packages.bin"]) nativeHash.update(readFileSync(assets[name]));
writeFileSync(join(WORK, "native-id"), nativeHash.digest("hex").slice(0, 16));
assets["native-id"] = join(WORK, "native-id");
for (const [name, file] of Object.entries(await trainCodeCaches(join(ROOT, "scripts/sea-loader.cjs"), WORK, assets)))
  assets[`${name}.cache`] = file;
writeFileSync(
  join(WORK, "sea-config.json"),
  JSON.stringify(
    {
      main: join(ROOT, "scripts/sea-loader.cjs"),
      output: join(WORK, "sea-prep.blob"),
      disableExperimentalSEAWarning: true,
      assets,
    },
    null,
    2,
  ),
);
quietly(process.execPath, ["--experimental-sea-config", join(WORK, "sea-config.json")]);

// --- 3. A copy of node with the blob injected ---
const target = join(OUT, "msgctl");
rmSync(target, { force: true });
copyFileSync(process.execPath, target);
chmodSync(target, 0o755);
try {
  // Debug symbols are most of node's size; the binary runs the same without them.
  execFileSync("strip", [target], { stdio: "ignore" });
} catch {
  // strip is optional
}
quietly(process.execPath, [
  require.resolve("postject/dist/cli.js"),
  target,
  "NODE_SEA_BLOB",
  join(WORK, "sea-prep.blob"),
  "--sentinel-fuse",
  "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2",
]);
console.log(`${target} (${(statSync(target).size / 1024 / 1024).toFixed(0)} MB)`);
