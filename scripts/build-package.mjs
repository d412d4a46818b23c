// `npm run build`: dist/ as the package ships it: the bundle and the inspector's page
// (scripts/build.mjs), the declarations (scripts/build-types.mjs), the commit in
// dist/build-info.json.
//
// `npm run build -- --if-changed` (what `prepare` runs): only when the sources changed since dist/
// was last built. npm runs `prepare` at every `npm install` in the checkout, and when a project
// installs the checkout as a dependency (`npm install --save-dev ../msgctl`): a whole build each
// time costs most of a minute. dist/.build-inputs holds a hash of every build input; when it
// matches, only the commit in dist/build-info.json is brought up to date.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BUILD_INPUTS, buildCommit } from "./build-info.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const STAMP = join(ROOT, "dist/.build-inputs");
const OUTPUTS = ["dist/index.js", "dist/client.cjs", "dist/sandbox.cjs", "dist/index.d.ts", "dist/build-info.json"];

/** Every file under the build inputs, in a stable order. */
function inputFiles(path) {
  const full = join(ROOT, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full)
    .sort()
    .flatMap((name) => inputFiles(join(path, name)));
}

/** A hash of the build inputs' paths and contents. */
function inputsHash() {
  const hash = createHash("sha256");
  for (const file of BUILD_INPUTS.flatMap(inputFiles)) hash.update(`${file}\0`).update(readFileSync(join(ROOT, file)));
  return hash.digest("hex");
}

const writeBuildInfo = () =>
  writeFileSync(join(ROOT, "dist/build-info.json"), `${JSON.stringify({ commit: buildCommit() })}\n`);

const hash = inputsHash();
const upToDate =
  OUTPUTS.every((file) => existsSync(join(ROOT, file))) &&
  existsSync(STAMP) &&
  readFileSync(STAMP, "utf8").trim() === hash;

const ifChanged = process.argv.includes("--if-changed");
// The package's test: dist/'s JavaScript was just built by the test run's global setup (rebuilding
// it would pull chunks from under the other tests); only the declarations may be missing.
const typesOnly = process.argv.includes("--types-if-changed");

if ((ifChanged || typesOnly) && upToDate) {
  writeBuildInfo();
  console.log("msgctl: dist/ is up to date with the sources; not rebuilt (npm run build rebuilds it)");
} else if (ifChanged && !existsSync(join(ROOT, "node_modules/esbuild"))) {
  // A checkout whose development dependencies are not installed cannot build.
  const built = OUTPUTS.every((file) => existsSync(join(ROOT, file)));
  console.error(
    built
      ? "msgctl: dist/ is older than the sources, and the build tools are not installed: run `npm install` in the checkout to rebuild it"
      : "msgctl: dist/ is missing and the build tools are not installed: run `npm install` in the checkout first",
  );
  process.exit(built ? 0 : 1);
} else {
  const scripts = typesOnly ? ["scripts/build-types.mjs"] : ["scripts/build.mjs", "scripts/build-types.mjs"];
  for (const script of scripts) execFileSync(process.execPath, [join(ROOT, script)], { cwd: ROOT, stdio: "inherit" });
  writeBuildInfo();
  writeFileSync(STAMP, `${hash}\n`);
}
