import { tmpdir } from "node:os";
import type { Metafile } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a build script, plain JavaScript without types
import { buildSeaBundles } from "../../scripts/sea-bundles.mjs";

// The single binary runs its client bundle at every start and compiles the sandbox's bundle only
// for the commands that run or build a sandbox (scripts/sea-bundles.mjs). What the client bundle
// holds is what every `msgctl clock` in a script's loop deserializes or compiles.

/** Sources that belong to the sandbox itself, not to a client of it. */
const SERVER_SIDE = [
  /^src\/(server|store|domain|runtime|scheduler)\//,
  /^node_modules\/(kysely|better-sqlite3|sharp|h3|listhen|crossws|zod|libphonenumber-js|undici|music-metadata|file-type)\//,
];

/** The one module of runtime/ the client may hold: the version, a constant after a build. */
const CLIENT_ALLOWED = new Set(["src/runtime/version.ts"]);

let bundles: { client: Metafile; sandbox: Metafile };

beforeAll(async () => {
  bundles = await buildSeaBundles({ outdir: tmpdir(), write: false });
}, 120_000);

/** The sources with code in a bundle (a single output each). */
function sources(meta: Metafile): string[] {
  return Object.values(meta.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path),
  );
}

describe("the single binary's two bundles", () => {
  it("the client bundle holds none of the server, store, domain, runtime, zod or libphonenumber", () => {
    const offenders = sources(bundles.client).filter(
      (path) => !CLIENT_ALLOWED.has(path) && SERVER_SIDE.some((pattern) => pattern.test(path)),
    );
    expect(offenders).toEqual([]);
    // The check sees the client where it is.
    expect(sources(bundles.client)).toContain("src/cli/commands/clock.ts");
  });

  it("the sandbox bundle holds the sandbox commands and the layers they load", () => {
    const held = sources(bundles.sandbox);
    for (const command of ["serve", "init", "openapi", "run"]) expect(held).toContain(`src/cli/commands/${command}.ts`);
    for (const layer of ["src/server/", "src/store/", "src/domain/", "node_modules/zod/", "node_modules/kysely/"])
      expect(held.some((path) => path.startsWith(layer))).toBe(true);
  });

  it("no module of msgctl is in both: the sandbox takes the client's from it (one AppError, one output)", () => {
    const client = new Set(sources(bundles.client).filter((path) => path.startsWith("src/")));
    expect(sources(bundles.sandbox).filter((path) => client.has(path))).toEqual([]);
    expect(client.has("src/lib/app-error.ts")).toBe(true);
  });
});
