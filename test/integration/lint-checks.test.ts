import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * `npm test` fails on an unformatted file or on dead code before any test runs: the scripts are
 * wired so, and the `lint` script, run as npm runs it, exits non-zero on each kind of dirt in a
 * small project of its own (the repository's own tree is what `npm test` checks).
 */

const ROOT = resolve(import.meta.dirname, "../..");
const scripts: Record<string, string> = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;

/** Runs a package.json script line in `dir` as npm would (the package's binaries first on PATH). */
function runScript(line: string, dir: string): { status: number | null; output: string } {
  const result = spawnSync("sh", ["-c", line], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, PATH: `${join(ROOT, "node_modules/.bin")}${delimiter}${process.env.PATH}` },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The repository's formatter settings, applied to a probe's `src/` (it is no git checkout). */
const biomeConfig = (): string => {
  const { $schema: _, ...config } = JSON.parse(readFileSync(join(ROOT, "biome.json"), "utf8"));
  return JSON.stringify({ ...config, vcs: { enabled: false }, files: { includes: ["src/**"] } });
};

/** A tiny project: an entry that uses `used` from `src/a.ts`, plus `files` (path → text). */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "msgctl-lint-"));
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "biome.json"), biomeConfig());
  writeFileSync(join(dir, "package.json"), '{ "name": "lint-probe", "type": "module", "private": true }\n');
  writeFileSync(join(dir, "knip.json"), '{ "entry": ["src/index.ts"], "project": ["src/**/*.ts"] }\n');
  writeFileSync(join(dir, "src/index.ts"), 'import { used } from "./a.js";\n\nconsole.log(used);\n');
  // Biome checks its own configuration file too: laid out by the formatter, it is not the dirt under test.
  expect(runScript("biome format --write biome.json", dir).status).toBe(0);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe("the checks npm test runs before the tests", () => {
  it("runs the type checks, then lint, then vitest; lint checks the format (never rewrites it) and runs knip", () => {
    expect(scripts.test).toBe("npm run typecheck && npm run lint && vitest run");
    expect(scripts.lint).toBe("biome format . && knip");
  });

  it("lint passes on a formatted project with no dead code", () => {
    const dir = project({ "src/a.ts": "export const used = 1;\n" });
    const run = runScript(scripts.lint as string, dir);
    expect(run.output).not.toMatch(/Unused/);
    expect(run.status).toBe(0);
  });

  it("lint fails on a file the formatter would change", () => {
    const dir = project({ "src/a.ts": "export const  used =1\n" });
    const run = runScript(scripts.lint as string, dir);
    expect(run.status).not.toBe(0);
    expect(run.output).toMatch(/Formatter would have printed/);
  });

  it("lint fails on an export nothing imports, naming it", () => {
    const dir = project({ "src/a.ts": "export const used = 1;\nexport const unused = 2;\n" });
    const run = runScript(scripts.lint as string, dir);
    expect(run.status).toBe(1);
    expect(run.output).toMatch(/Unused exports \(1\)\s+unused\s+src\/a\.ts/);
  });

  it("lint fails on a file nothing imports", () => {
    const dir = project({ "src/a.ts": "export const used = 1;\n", "src/orphan.ts": "export const alone = 1;\n" });
    const run = runScript(scripts.lint as string, dir);
    expect(run.status).toBe(1);
    expect(run.output).toMatch(/Unused files \(1\)\s+src\/orphan\.ts/);
  });
});
