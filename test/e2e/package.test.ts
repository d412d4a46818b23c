import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { build } from "esbuild";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * msgctl as someone else's project gets it: the tarball `npm pack` makes, installed into a new
 * project with npm, compiled against by tsc with `skipLibCheck: false`, then `import`ed,
 * `require`d and run (`startSandbox()`, `npx msgctl`). publint and arethetypeswrong judge the
 * same tarball.
 *
 * npm resolves the consumer's dependencies from its cache (`--prefer-offline`; the checkout's own
 * install put better-sqlite3 and sharp there), or from the registry when a package is not
 * cached. Install scripts are skipped and better-sqlite3's addon is copied from the checkout (the
 * same version for the same Node): compiling it again would take minutes and proves nothing about
 * msgctl's package.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
/** A file of a development dependency of the checkout. */
const tool = (pkg: string, path: string) => join(ROOT, "node_modules", pkg, path);

/** A file of the consumer project. */
const CONSUMER_APP = `import { type DeliveryListOptions, type MessageResource, startSandbox, verifyWebhook } from "msgctl";

const sandbox = await startSandbox({ clock: "manual" });
try {
  // Nothing listens on port 9 of loopback: the delivery is refused and waits for its retry.
  const { webhook } = await sandbox.client.webhooks.create({ url: "http://127.0.0.1:9/hook", events: ["message.sent"] });
  const { message: sent }: { message: MessageResource } = await sandbox.client.messages.send({
    to: "+14155550191",
    from_handle: "+14155550101",
    text: "Hi",
  });
  await sandbox.clock.advance("5s");
  await sandbox.settle();
  const filters: DeliveryListOptions = { webhookId: webhook.id, limit: 10 };
  const deliveries = await sandbox.client.webhooks.deliveries(filters);
  const message = await sandbox.client.messages.get(sent.id);
  const verified = verifyWebhook("{}", "t=1,v1=00", "whsec_test");
  console.log(
    JSON.stringify({ status: message.status, deliveries: deliveries.data.map((d) => d.event_type), verified: verified.ok }),
  );
} finally {
  await sandbox.stop();
}
`;

/** CommonJS, as \`npm init\` makes a project: \`require("msgctl")\`, typed by the same declarations. */
const CONSUMER_REQUIRE = `import msgctl = require("msgctl");

const start: typeof msgctl.startSandbox = msgctl.startSandbox;
start().then(async (sandbox) => {
  console.log(JSON.stringify({ events: msgctl.EVENT_TYPES.length, local: sandbox.baseUrl.startsWith("http://127.0.0.1:") }));
  await sandbox.stop();
});
`;

const run = (command: string, args: string[], cwd: string) => {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, output: result.stdout + result.stderr };
};

describe("the package in a project of its own", () => {
  const work = mkdtempSync(join(tmpdir(), "msgctl-package-"));
  const consumer = join(work, "consumer");
  let tarball: string;
  let packed: { files: { path: string }[]; unpackedSize: number };

  beforeAll(() => {
    // dist/'s JavaScript is the global setup's build; the declarations and build-info.json are made here if stale.
    execFileSync(process.execPath, [join(ROOT, "scripts/build-package.mjs"), "--types-if-changed"], {
      cwd: ROOT,
      stdio: "ignore",
    });
    const pack = JSON.parse(
      execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], {
        cwd: ROOT,
        encoding: "utf8",
      }),
    );
    packed = pack[0];
    tarball = join(work, pack[0].filename);

    mkdirSync(consumer);
    writeFileSync(
      join(consumer, "package.json"),
      JSON.stringify({
        name: "consumer",
        private: true,
        type: "commonjs",
        devDependencies: {
          msgctl: `file:${tarball}`,
          typescript: PACKAGE.devDependencies.typescript,
          "@types/node": PACKAGE.devDependencies["@types/node"],
        },
      }),
    );
    const install = run(
      "npm",
      ["install", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
      consumer,
    );
    expect(install.code, install.output).toBe(0);
    const addon = "node_modules/better-sqlite3/build/Release/better_sqlite3.node";
    mkdirSync(join(consumer, addon, ".."), { recursive: true });
    copyFileSync(join(ROOT, addon), join(consumer, addon));
  }, 600_000);

  it("ships the build, its declarations, README, LICENSE and docs/, and no source maps", () => {
    const paths = packed.files.map((file) => file.path);
    for (const path of [
      "README.md",
      "LICENSE",
      "bin/msgctl",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/client.cjs",
      "dist/sandbox.cjs",
    ])
      expect(paths).toContain(path);
    expect(paths).toContain("docs/sandbox.md");
    expect(paths.filter((path) => path.endsWith(".map"))).toEqual([]);
    // Every page the README links to is in the package.
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    for (const [, link] of readme.matchAll(/\]\((docs\/[^)#]+)/g)) expect(paths).toContain(link);
  });

  it("depends at run time on what the bundle does not contain: better-sqlite3 and sharp", async () => {
    expect(Object.keys(PACKAGE.dependencies).sort()).toEqual(["better-sqlite3", "sharp"]);
    // Every module the installed entries reach, statically or by import(), as esbuild resolves them.
    const dist = join(consumer, "node_modules/msgctl/dist");
    const imported = new Set<string>();
    await build({
      entryPoints: [join(dist, "index.js"), join(dist, "client.cjs"), join(dist, "sandbox.cjs")],
      bundle: true,
      platform: "node",
      format: "esm",
      outdir: join(work, "reach"),
      write: false,
      logLevel: "silent",
      plugins: [
        {
          name: "bare-specifiers",
          setup(build) {
            build.onResolve({ filter: /^[^./]/ }, (args) => {
              // The package's name: `node:fs`, `sharp`, `@scope/name` (without a subpath).
              imported.add(args.path.split("/", args.path.startsWith("@") ? 2 : 1).join("/"));
              return { path: args.path, external: true };
            });
          },
        },
      ],
    });
    const builtins = new Set(builtinModules);
    const packages = [...imported].filter((name) => !name.startsWith("node:") && !builtins.has(name));
    expect(packages.sort()).toEqual(["better-sqlite3", "sharp"]);
    // What the bundle carries is not installed a second time.
    for (const name of ["zod", "kysely", "h3", "commander", "chalk", "libphonenumber-js"])
      expect(existsSync(join(consumer, "node_modules", name))).toBe(false);
  });

  it("compiles under tsc with skipLibCheck: false, for import and require, with only @types/node", () => {
    writeFileSync(join(consumer, "app.mts"), CONSUMER_APP);
    writeFileSync(join(consumer, "require-check.cts"), CONSUMER_REQUIRE);
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          target: "es2022",
          strict: true,
          skipLibCheck: false,
          types: ["node"],
          outDir: "out",
          noEmitOnError: true,
        },
        files: ["app.mts", "require-check.cts"],
      }),
    );
    const tsc = run(process.execPath, [join(consumer, "node_modules/typescript/bin/tsc"), "-p", "."], consumer);
    expect(tsc.output).toBe("");
    expect(tsc.code).toBe(0);
  }, 180_000);

  it("runs startSandbox() once through import: a send, a delivery filtered by webhookId, verifyWebhook", () => {
    const app = run(process.execPath, ["out/app.mjs"], consumer);
    expect(app.code, app.stderr).toBe(0);
    expect(JSON.parse(app.stdout)).toEqual({ status: "read", deliveries: ["message.sent"], verified: false });
  }, 60_000);

  it("is require()d from CommonJS", () => {
    const cjs = run(process.execPath, ["out/require-check.cjs"], consumer);
    expect(cjs.code, cjs.stderr).toBe(0);
    expect(JSON.parse(cjs.stdout)).toEqual({ events: 9, local: true });
  }, 60_000);

  it("npx msgctl --version names the version and the commit the package was built from", () => {
    const commit = execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    const version = run("npx", ["--no-install", "msgctl", "--version"], consumer);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(
      new RegExp(`^${PACKAGE.version.replaceAll(".", "\\.")} \\(commit ${commit}(-dirty)?\\)$`),
    );
  }, 60_000);

  it("publint finds nothing to say about the tarball", () => {
    const publint = run(process.execPath, [tool("publint", "src/cli.js"), "run", tarball, "--strict"], ROOT);
    expect(publint.code, publint.output).toBe(0);
    expect(publint.output).toContain("All good!");
  }, 60_000);

  it("arethetypeswrong --profile esm-only finds no problem", () => {
    const attw = run(
      process.execPath,
      [tool("@arethetypeswrong/cli", "dist/index.js"), tarball, "--profile", "esm-only", "--format", "json"],
      ROOT,
    );
    expect(attw.code, attw.output).toBe(0);
    // The profile leaves out node10 and node16-cjs resolution: TypeScript's model of the latter
    // predates require() of ES modules (Node 20.19+), which the require test above runs for real.
    const problems: { kind: string; resolutionKind?: string }[] = JSON.parse(attw.stdout).analysis.problems;
    expect(problems.filter((problem) => !["node10", "node16-cjs"].includes(problem.resolutionKind ?? ""))).toEqual([]);
  }, 60_000);
});
