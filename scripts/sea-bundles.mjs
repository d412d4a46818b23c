// msgctl's CLI as two CommonJS bundles: the single binary's assets (scripts/build-binary.mjs) and,
// with `node: true`, the package's dist/client.cjs and dist/sandbox.cjs (scripts/build.mjs, run by
// bin/msgctl):
//
// - client.js, run at every start: the CLI's entry, commander and every client command (what a
//   script calling `msgctl clock` in a loop pays for);
// - sandbox.js, compiled only by the commands that run or build a sandbox (serve, init, openapi,
//   run) and the few client paths that need its code (the OTP walkthrough's phone parsing,
//   `reset --fixture`): the server, store, domain, zod, kysely, sharp's loader.
//
// The seam is the CLI's dynamic imports: one of a sandbox module is replaced, in client.js, by a
// call to the sandbox bundle (loaded on first call by scripts/sea-loader.cjs, or bin/msgctl). The sandbox
// bundle does not carry a second copy of the CLI's modules that client.js already holds: it takes
// them from client.js (a registry of lazy `require`s), so each module exists once per process
// (one `AppError` class for `instanceof`, one signal latch, one output).
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { build } from "esbuild";
import { phoneMetadataAsJson, zodEnglishOnly } from "./bundle-plugins.mjs";

const ROOT = resolve(import.meta.dirname, "..");

/** Dynamic imports of the CLI that lead into the sandbox: these commands run or build one. */
const SANDBOX_COMMANDS = ["serve", "init", "openapi", "run"].map((name) => `src/cli/commands/${name}.ts`);

/**
 * Whether a dynamic import's target (relative to the root) belongs in the sandbox bundle: a
 * sandbox command, the sandbox's own layers, or the phone-number parser (libphonenumber's metadata).
 */
export function inSandboxBundle(path) {
  return (
    SANDBOX_COMMANDS.includes(path) ||
    /^src\/(server|store|domain|runtime|scheduler|contract)\//.test(path) ||
    path === "src/lib/handles.ts"
  );
}

const SHARED = Symbol.for("msgctl.shared").description;
const SANDBOX = Symbol.for("msgctl.sandbox-bundle").description;

/** esbuild options both bundles share; `node` for the package's files (dist/), else the binary's. */
function common(define, node) {
  return {
    absWorkingDir: ROOT,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    // As scripts/build.mjs: names as written, so no `__name` call per closure created.
    minifySyntax: true,
    minifyWhitespace: true,
    // No top-level await in CommonJS; import.meta.url becomes the bundle's own file URL in the
    // package, the executable's in the binary.
    define: { "import.meta.url": "__msgctlImportMetaUrl", ...define },
    banner: {
      js: `const __msgctlImportMetaUrl = require('node:url').pathToFileURL(${node ? "__filename" : "process.execPath"}).href;`,
    },
    // Native addons cannot be bundled: the package loads them from node_modules.
    external: node ? ["better-sqlite3", "sharp"] : [],
    metafile: true,
    logLevel: "warning",
  };
}

/** Client side: each dynamic import into the sandbox becomes a call into the sandbox bundle. */
const sandboxSeam = {
  name: "sandbox-seam",
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind !== "dynamic-import" || args.pluginData === "seam") return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: "seam",
      });
      const path = relative(ROOT, resolved.path);
      return inSandboxBundle(path) ? { path, namespace: "sandbox-seam" } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: "sandbox-seam" }, (args) => ({
      contents: `module.exports = globalThis[Symbol.for(${JSON.stringify(SANDBOX)})]().modules[${JSON.stringify(args.path)}]();`,
      loader: "js",
    }));
  },
};

/** Sandbox side: a module client.js already holds is taken from its registry, not bundled again. */
function fromClient(clientModules, used) {
  return {
    name: "from-client",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === "entry-point" || args.pluginData === "shared" || args.namespace === "carried")
          return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: "shared",
        });
        if (resolved.errors.length > 0 || resolved.external) return undefined;
        const path = relative(ROOT, resolved.path);
        if (!clientModules.has(path)) return undefined;
        used.add(path);
        return { path, namespace: "from-client" };
      });
      build.onLoad({ filter: /.*/, namespace: "from-client" }, (args) => ({
        contents: `module.exports = globalThis[Symbol.for(${JSON.stringify(SHARED)})][${JSON.stringify(args.path)}]();`,
        loader: "js",
      }));
    },
  };
}

/** The modules of a build's output with code in it (relative paths); only msgctl's own sources. */
function ownModules(metafile) {
  return new Set(
    Object.values(metafile.outputs).flatMap((output) =>
      Object.entries(output.inputs)
        .filter(([path, input]) => path.startsWith("src/") && input.bytesInOutput > 0)
        .map(([path]) => path),
    ),
  );
}

/** The client bundle's entry: the registry of its modules the sandbox takes, then the CLI. */
function clientEntry(shared) {
  const lines = [...shared]
    .sort()
    .map((path) => `  ${JSON.stringify(path)}: () => require(${JSON.stringify(`./${path}`)}),`);
  return `globalThis[Symbol.for(${JSON.stringify(SHARED)})] = {\n${lines.join("\n")}\n};\nrequire("./scripts/sea-entry.ts");\n`;
}

/** The sandbox bundle's entry: each module the client reaches through the seam, loaded on first use. */
function sandboxEntry(targets) {
  const lines = [...targets]
    .sort()
    .map((path) => `  ${JSON.stringify(path)}: () => require(${JSON.stringify(`./${path}`)}),`);
  return `export const modules = {\n${lines.join("\n")}\n};\n`;
}

/**
 * Builds client.js and sandbox.js into `outdir` (nothing written when `write` is false); returns
 * both metafiles. `define` adds build-time constants; `plugins` go to the sandbox bundle.
 */
export async function buildSeaBundles({ outdir, define = {}, plugins = [], write = true, node = false }) {
  const ext = node ? "cjs" : "js";
  // 1. Which dynamic imports cross the seam, and which modules client.js holds.
  const targets = new Set();
  const probe = await build({
    ...common(define, node),
    entryPoints: [join(ROOT, "scripts/sea-entry.ts")],
    write: false,
    outfile: join(outdir, `client.${ext}`),
    plugins: [
      {
        name: "seam-targets",
        setup(build) {
          build.onLoad({ filter: /.*/, namespace: "sandbox-seam" }, (args) => {
            targets.add(args.path);
            return { contents: "", loader: "js" };
          });
        },
      },
      sandboxSeam,
    ],
  });
  // 2. The sandbox, taking what client.js holds from it.
  const shared = new Set();
  const sandbox = await build({
    ...common(define, node),
    stdin: { contents: sandboxEntry(targets), resolveDir: ROOT, sourcefile: "sandbox-entry.js", loader: "js" },
    outfile: join(outdir, `sandbox.${ext}`),
    write,
    plugins: [fromClient(ownModules(probe.metafile), shared), zodEnglishOnly, phoneMetadataAsJson, ...plugins],
  });
  // 3. The client with its registry of what the sandbox takes (modules it already holds).
  const client = await build({
    ...common(define, node),
    stdin: { contents: clientEntry(shared), resolveDir: ROOT, sourcefile: "client-entry.js", loader: "js" },
    outfile: join(outdir, `client.${ext}`),
    write,
    plugins: [sandboxSeam],
  });
  return { client: client.metafile, sandbox: sandbox.metafile };
}

/** The version in package.json, for the bundles' `__MSGCTL_VERSION__`. */
export function packageVersion() {
  return JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
}
