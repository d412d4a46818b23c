import { resolve } from "node:path";
import type { Metafile } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a build script, plain JavaScript without types
import { buildSeaBundles } from "../../scripts/sea-bundles.mjs";

// A client command (`msgctl clock`, `send`, `wait`, …) needs commander, a request and a formatter.
// Whatever else it loads is parsed at every call, and scripts call msgctl in loops: bin/msgctl
// loads dist/client.cjs at every start and dist/sandbox.cjs only when a command crosses into the
// sandbox (scripts/build.mjs), so client.cjs's static module graph is what a client command loads.

const ROOT = resolve(import.meta.dirname, "../..");

/** Sources that belong to the sandbox itself, not to a client of it. */
const SERVER_SIDE = [
  /^src\/(server|store|domain|runtime|scheduler)\//,
  /^node_modules\/(kysely|better-sqlite3|sharp|h3|listhen|crossws|zod|libphonenumber-js|undici|music-metadata|file-type)\//,
];

/** The one module of runtime/ the client may load: the version, a constant after a build. */
const CLIENT_ALLOWED = new Set(["src/runtime/version.ts"]);

let client: Metafile;
let sandbox: Metafile;

beforeAll(async () => {
  ({ client, sandbox } = await buildSeaBundles({ outdir: resolve(ROOT, "out"), node: true, write: false }));
}, 120_000);

/** The sources with code in a bundle's output. */
const inputsOf = (meta: Metafile) =>
  new Set(
    Object.values(meta.outputs).flatMap((output) =>
      Object.entries(output.inputs)
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path]) => path),
    ),
  );

describe("what a client command loads (dist/client.cjs, as built)", () => {
  it("holds none of the server, store, domain, runtime, zod, libphonenumber or undici", () => {
    const inputs = inputsOf(client);
    expect([...inputs].filter((input) => input.startsWith("src/cli/commands/")).length).toBeGreaterThan(15);
    expect(
      [...inputs].filter((input) => !CLIENT_ALLOWED.has(input) && SERVER_SIDE.some((pattern) => pattern.test(input))),
    ).toEqual([]);
  });

  it("holds no command that runs or builds a sandbox: those are calls into sandbox.cjs", () => {
    const inputs = inputsOf(client);
    for (const command of ["serve", "init", "openapi", "run"]) {
      expect(inputs.has(`src/cli/commands/${command}.ts`)).toBe(false);
      expect(inputs.has(`sandbox-seam:src/cli/commands/${command}.ts`)).toBe(true);
    }
  });

  it("the check sees the sandbox where it is: sandbox.cjs holds the server, the store, the domain and zod", () => {
    const inputs = [...inputsOf(sandbox)];
    for (const layer of ["src/server/", "src/store/", "src/domain/", "node_modules/zod/"])
      expect(inputs.some((input) => input.startsWith(layer))).toBe(true);
    // zod's namespace exports every locale; the builds keep English, the one msgctl speaks.
    expect(inputs.filter((input) => input.startsWith("node_modules/zod/v4/locales/")).sort()).toEqual([
      "node_modules/zod/v4/locales/en.js",
      "node_modules/zod/v4/locales/index.js",
    ]);
  });

  it("each of msgctl's modules is in one bundle only: the sandbox takes the CLI's from the client", () => {
    const clientSources = [...inputsOf(client)].filter((input) => input.startsWith("src/"));
    const sandboxSources = new Set([...inputsOf(sandbox)].filter((input) => input.startsWith("src/")));
    expect(clientSources.filter((input) => sandboxSources.has(input))).toEqual([]);
    expect(clientSources).toContain("src/cli/output.ts");
  });
});
