// `npm run release`: the single binary as a release for this platform:
// dist/release/msgctl-<version>-<platform>-<arch>.tar.gz, one folder of that name holding
// `msgctl`, README.md and LICENSE, and beside it `<tarball>.sha256`, one line in the format
// `sha256sum -c` and `shasum -a 256 -c` check.
//
//   npm run release                  → builds the binary (scripts/build-binary.mjs), then packs it
//   npm run release -- --no-build    → packs dist/bin/msgctl as it was built
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  createReadStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const BINARY = join(ROOT, "dist/bin/msgctl");
const OUT = join(ROOT, "dist/release");

if (!process.argv.includes("--no-build")) {
  execFileSync(process.execPath, [join(ROOT, "scripts/build-binary.mjs")], { cwd: ROOT, stdio: "inherit" });
} else if (!existsSync(BINARY)) {
  console.error(
    "release: dist/bin/msgctl is missing: run `npm run build:binary` first, or `npm run release` without --no-build",
  );
  process.exit(1);
}

const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const name = `msgctl-${version}-${process.platform}-${process.arch}`;
const folder = join(OUT, name);
const tarball = `${name}.tar.gz`;

rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });
copyFileSync(BINARY, join(folder, "msgctl"));
chmodSync(join(folder, "msgctl"), 0o755);
for (const file of ["README.md", "LICENSE"]) copyFileSync(join(ROOT, file), join(folder, file));

// The system's tar (GNU tar on Linux, bsdtar on macOS): both write this gzip'd ustar/pax archive.
rmSync(join(OUT, tarball), { force: true });
execFileSync("tar", ["-czf", tarball, name], { cwd: OUT, stdio: "inherit" });
rmSync(folder, { recursive: true, force: true });

const hash = createHash("sha256");
for await (const chunk of createReadStream(join(OUT, tarball))) hash.update(chunk);
// Two spaces: the "text mode" separator both checkers accept.
writeFileSync(join(OUT, `${tarball}.sha256`), `${hash.digest("hex")}  ${tarball}\n`);
console.log(`${join("dist/release", tarball)}\n${join("dist/release", `${tarball}.sha256`)}`);
