import { resolve } from "node:path";
import { build, type Metafile } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a build script, plain JavaScript without types
import { NODE_ESM_BUNDLE } from "../../scripts/default-fixture.mjs";

// A client command (`msgctl clock`, `send`, `wait`, …) needs commander, a request and a formatter.
// Whatever else its module graph reaches is parsed at every call, and scripts call msgctl in loops:
// the CLI is bundled with code splitting (scripts/build.mjs), so each command's chunk and the
// chunks it imports statically are exactly what `node bin/msgctl <command>` loads.

const ROOT = resolve(import.meta.dirname, "../..");

/** Sources that belong to the sandbox itself, not to a client of it. */
const SERVER_SIDE = [
  /^src\/(server|store|domain|runtime|scheduler)\//,
  /^node_modules\/(kysely|better-sqlite3|sharp|h3|listhen|crossws|zod|libphonenumber-js|undici|music-metadata|file-type)\//,
];

/**
 * Commands that run or build the sandbox, and so load it: everything else is a client. `run`
 * starts one with --serve, and checks scenario files with the contract's zod schemas (the ones
 * its published JSON Schema is made from); it runs once per suite, not in a script's loop.
 */
const SANDBOX_COMMANDS = new Set(["serve.ts", "init.ts", "openapi.ts", "run.ts"]);

/** The one module of runtime/ the CLI's entry may load: the version, a constant after a build. */
const ENTRY_ALLOWED = new Set(["src/runtime/version.ts"]);

let meta: Metafile;

beforeAll(async () => {
  const result = await build({
    ...NODE_ESM_BUNDLE,
    entryPoints: { cli: "src/cli/main.ts" },
    absWorkingDir: ROOT,
    outdir: "out",
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  if (!result.metafile) throw new Error("esbuild returned no metafile");
  meta = result.metafile;
}, 60_000);

/** The sources bundled into an output and every chunk it imports statically (what loads with it). */
function staticallyLoaded(output: string): Set<string> {
  const outputs = new Set<string>();
  const visit = (path: string) => {
    if (outputs.has(path)) return;
    outputs.add(path);
    for (const imported of meta.outputs[path]?.imports ?? [])
      if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
  };
  visit(output);
  return new Set([...outputs].flatMap((path) => Object.keys(meta.outputs[path]?.inputs ?? {})));
}

const outputOf = (entryPoint: string) =>
  Object.entries(meta.outputs).find(([, output]) => output.entryPoint === entryPoint)?.[0];

const serverSide = (inputs: Set<string>, allowed = new Set<string>()) =>
  [...inputs].filter((input) => !allowed.has(input) && SERVER_SIDE.some((pattern) => pattern.test(input)));

describe("what a client command loads (the built bundle's static imports)", () => {
  it("the CLI's entry loads no command and none of the sandbox's code", () => {
    const entry = outputOf("src/cli/main.ts");
    expect(entry).toBeDefined();
    const inputs = staticallyLoaded(entry as string);
    expect(serverSide(inputs, ENTRY_ALLOWED)).toEqual([]);
    expect([...inputs].filter((input) => input.startsWith("src/cli/commands/"))).toEqual([]);
  });

  it("every client command's chunk loads none of the server, store, domain, zod or libphonenumber", () => {
    const commands = Object.values(meta.outputs)
      .map((output) => output.entryPoint)
      .filter((entry): entry is string => entry?.startsWith("src/cli/commands/") ?? false);
    // The registrars import each command lazily, so each is an entry of its own.
    expect(commands.length).toBeGreaterThan(15);
    const offenders = commands
      .filter((command) => !SANDBOX_COMMANDS.has(command.slice("src/cli/commands/".length)))
      .flatMap((command) =>
        serverSide(staticallyLoaded(outputOf(command) as string)).map((input) => `${command} loads ${input}`),
      );
    expect(offenders).toEqual([]);
  });

  it("the check sees the sandbox where it is: serve loads the server, the store and the domain", () => {
    const inputs = staticallyLoaded(outputOf("src/cli/commands/serve.ts") as string);
    for (const layer of ["src/server/", "src/store/", "src/domain/", "node_modules/zod/"])
      expect([...inputs].some((input) => input.startsWith(layer))).toBe(true);
    // zod's namespace exports every locale; the builds keep English, the one msgctl speaks.
    expect([...inputs].filter((input) => input.startsWith("node_modules/zod/v4/locales/"))).toEqual([
      "node_modules/zod/v4/locales/index.js",
      "node_modules/zod/v4/locales/en.js",
    ]);
  });
});
