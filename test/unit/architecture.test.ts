import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The architecture of docs/architecture.md, checked on the source: layers import downward only,
 * each library stays in its layer, and a concept folder of the domain or of the store is entered
 * only through its face (index.ts).
 */

const ROOT = resolve(import.meta.dirname, "../..");

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return /\.tsx?$/.test(path) ? [path] : [];
  });
}

interface Import {
  file: string;
  /** A path relative to the root for relative imports, else the package name. */
  target: string;
  typeOnly: boolean;
  /** `import("…")`: loaded when that line runs, not with the file. */
  dynamic: boolean;
  line: string;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const found: Import[] = [];
  for (const match of text.matchAll(/^(import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?"([^"]+)";?$/gms)) {
    const spec = match[3] as string;
    const target = spec.startsWith(".")
      ? relative(ROOT, resolve(dirname(join(ROOT, file)), spec)).replace(/\.js$/, ".ts")
      : packageOf(spec);
    found.push({
      file,
      target,
      typeOnly: Boolean(match[2]),
      dynamic: false,
      line: (match[0] as string).split("\n")[0] as string,
    });
  }
  for (const match of text.matchAll(/import\("([^"]+)"\)/g)) {
    const spec = match[1] as string;
    if (spec.startsWith("."))
      found.push({
        file,
        target: relative(ROOT, resolve(dirname(join(ROOT, file)), spec)).replace(/\.js$/, ".ts"),
        typeOnly: false,
        dynamic: true,
        line: match[0],
      });
  }
  return found;
}

const packageOf = (spec: string) =>
  spec.startsWith("node:")
    ? "node:"
    : spec
        .split("/")
        .slice(0, spec.startsWith("@") ? 2 : 1)
        .join("/");

/** The layer of a source path: the folder under src/ (or the file, for src/index.ts). */
const layerOf = (path: string) => path.split("/")[1]?.replace(/\.tsx?$/, "") ?? "";

/** What each layer may import besides itself (docs/architecture.md, "Layers"). */
const ALLOWED: Record<string, readonly string[]> = {
  index: ["runtime", "client", "contract", "lib"],
  cli: ["runtime", "client", "scenarios", "domain", "contract", "lib"],
  runtime: ["server", "scheduler", "client", "domain", "store", "contract", "lib"],
  server: ["domain", "contract", "lib"],
  scheduler: ["domain", "store", "lib"],
  client: ["contract", "lib"],
  // The scenario runner drives a sandbox from outside, as a user's suite would: over the typed client.
  scenarios: ["client", "contract", "lib"],
  domain: ["store", "contract", "lib"],
  store: ["lib"],
  contract: ["lib"],
  lib: [],
  // The inspector is a browser app, bundled on its own: the typed client and the contract's types.
  inspector: ["client", "contract"],
};

/** Libraries that belong to one layer (STYLE.md rule 1). */
const PACKAGE_HOME: Record<string, readonly string[]> = {
  kysely: ["store"],
  "better-sqlite3": ["store"],
  h3: ["server"],
  listhen: ["server"],
  commander: ["cli"],
  "@commander-js/extra-typings": ["cli"],
  "@inquirer/prompts": ["cli"],
  chalk: ["cli"],
  ora: ["cli"],
  zod: ["contract", "lib"],
  busboy: ["server"],
  sharp: ["domain"],
  "file-type": ["domain"],
  "music-metadata": ["domain"],
  preact: ["inspector"],
  yaml: ["scenarios"],
  xmlbuilder2: ["scenarios"],
};

/** What the inspector's bundle may contain besides its own files (docs/architecture.md, "The inspector"). */
const INSPECTOR_PACKAGES = ["preact", "eventsource-parser"];

const sources = filesUnder("src");
const imports = sources.flatMap(importsOf);

describe("architecture (docs/architecture.md)", () => {
  it("layers import downward only", () => {
    const upward = imports
      .filter((i) => i.target.startsWith("src/"))
      .filter((i) => layerOf(i.file) !== layerOf(i.target) && !ALLOWED[layerOf(i.file)]?.includes(layerOf(i.target)))
      .map((i) => `${i.file}: ${i.line}`);
    expect(upward).toEqual([]);
  });

  it("each library is imported only in its layer", () => {
    const misplaced = imports
      .filter((i) => PACKAGE_HOME[i.target] && !PACKAGE_HOME[i.target]?.includes(layerOf(i.file)))
      .map((i) => `${i.file}: ${i.line}`);
    expect(misplaced).toEqual([]);
  });

  it("a concept folder is entered only through its face, from the source and the tests alike", () => {
    const all = [...imports, ...filesUnder("test").flatMap(importsOf)];
    const concept = (path: string) => /^src\/domain\/([^/]+)\//.exec(path)?.[1];
    const bypassing = all
      .filter((i) => concept(i.target) && concept(i.target) !== concept(i.file) && !i.target.endsWith("/index.ts"))
      .map((i) => `${i.file}: ${i.line}`);
    expect(bypassing).toEqual([]);
  });

  it("the store is folders by concept, as the domain's, beside its engine; no file lies loose in store/", () => {
    const storeFiles = sources.filter((file) => file.startsWith("src/store/"));
    const domainConcepts = new Set(sources.map((file) => /^src\/domain\/([^/]+)\//.exec(file)?.[1]));
    const folders = new Set(storeFiles.map((file) => /^src\/store\/([^/]+)\//.exec(file)?.[1] ?? file));
    const strays = [...folders].filter((folder) => folder !== "engine" && !domainConcepts.has(folder));
    expect(strays).toEqual([]);
  });

  it("a store folder is entered only through its face, from the rest of the source, the tests and its other folders", () => {
    const all = [...imports, ...filesUnder("test").flatMap(importsOf)];
    const folder = (path: string) => /^src\/store\/([^/]+)\//.exec(path)?.[1];
    const bypassing = all
      .filter((i) => folder(i.target) && folder(i.target) !== folder(i.file))
      // The concept folders build their queries on the engine's parts (`Db`, `compileOnce`, the
      // schema): its face also opens the connection, and better-sqlite3 would come with it into
      // every bundle of domain code (the fixture parsed at build time).
      .filter((i) => !(folder(i.file) && folder(i.target) === "engine"))
      .filter((i) => i.target !== `src/store/${folder(i.target)}/index.ts`)
      .map((i) => `${i.file}: ${i.line}`);
    expect(bypassing).toEqual([]);
  });

  it("the inspector is a browser app: the typed client, contract types only (import type), Preact, no Node", () => {
    const offenders = imports
      .filter((i) => layerOf(i.file) === "inspector" && layerOf(i.target) !== "inspector")
      .filter((i) =>
        i.target.startsWith("src/")
          ? !(layerOf(i.target) === "client" || (layerOf(i.target) === "contract" && i.typeOnly))
          : !INSPECTOR_PACKAGES.includes(i.target),
      )
      .map((i) => `${i.file}: ${i.line}`);
    expect(offenders).toEqual([]);
  });

  it("the inspector's bundle reaches no Node module, no package but its own, no server, runtime, domain or store", () => {
    // Every file the bundle holds: the inspector's own (all of them) and what they import at run
    // time, followed through (type-only imports are erased).
    const reached = new Set(sources.filter((file) => layerOf(file) === "inspector"));
    for (const file of reached)
      for (const i of importsOf(file))
        if (!i.typeOnly && i.target.startsWith("src/") && layerOf(i.target) !== "inspector") reached.add(i.target);
    const offenders = imports
      .filter((i) => reached.has(i.file) && !i.typeOnly)
      .filter((i) =>
        i.target.startsWith("src/")
          ? !["inspector", "client", "contract", "lib"].includes(layerOf(i.target))
          : !INSPECTOR_PACKAGES.includes(i.target),
      )
      .map((i) => `${i.file}: ${i.line}`);
    expect(offenders).toEqual([]);
    // The client is in it: the inspector talks to the sandbox through the one typed client.
    expect([...reached].some((file) => layerOf(file) === "client")).toBe(true);
  });

  it("the typed client is browser-safe: no Node module anywhere in it", () => {
    const offenders = imports
      .filter((i) => layerOf(i.file) === "client" && i.target === "node:")
      .map((i) => `${i.file}: ${i.line}`);
    expect(offenders).toEqual([]);
  });

  it("the domain reads no wall clock and the process is exited only by the CLI", () => {
    const offenders = sources.flatMap((file) => {
      const text = readFileSync(join(ROOT, file), "utf8");
      const found: string[] = [];
      // The context's default wall clock is the one place allowed to name it.
      if (
        file.startsWith("src/domain/") &&
        file !== "src/domain/core/context.ts" &&
        /Date\.now\(|new Date\(\)/.test(text)
      )
        found.push(`${file}: wall clock`);
      if (!file.startsWith("src/cli/") && /process\.exit\(/.test(text)) found.push(`${file}: process.exit`);
      return found;
    });
    expect(offenders).toEqual([]);
  });

  describe("the CLI's wiring", () => {
    const cli = imports.filter((i) => i.file.startsWith("src/cli/"));
    const registrars = sources.filter((file) => file.startsWith("src/cli/registrars/"));

    it("only the entry (main.ts) imports program.ts: no command or registrar reaches back into it", () => {
      const offenders = cli
        .filter((i) => i.target === "src/cli/program.ts" && i.file !== "src/cli/main.ts")
        .map((i) => `${i.file}: ${i.line}`);
      expect(offenders).toEqual([]);
    });

    it("program.ts imports the registrars (every one of them) and the defaults, nothing else of ours", () => {
      const own = cli.filter((i) => i.file === "src/cli/program.ts" && i.target.startsWith("src/"));
      const others = own
        .filter((i) => !i.target.startsWith("src/cli/registrars/") && i.target !== "src/cli/defaults.ts")
        .map((i) => i.line);
      expect(others).toEqual([]);
      expect(own.map((i) => i.target).filter((target) => target.startsWith("src/cli/registrars/"))).toEqual(
        expect.arrayContaining(registrars),
      );
      expect(registrars.length).toBeGreaterThan(0);
    });

    it("a registrar imports command modules only lazily, from its actions", () => {
      const eager = cli
        .filter((i) => registrars.includes(i.file) && i.target.startsWith("src/cli/commands/") && !i.dynamic)
        .map((i) => `${i.file}: ${i.line}`);
      expect(eager).toEqual([]);
    });

    it("starting the CLI (msgctl --help) loads no command module and no zod", () => {
      const loaded = new Set<string>();
      const visit = (file: string) => {
        if (loaded.has(file)) return;
        loaded.add(file);
        for (const i of imports) if (i.file === file && !i.dynamic && !i.typeOnly) visit(i.target);
      };
      visit("src/cli/main.ts");
      expect([...loaded].filter((file) => file.startsWith("src/cli/commands/") || file === "zod")).toEqual([]);
    });
  });
});
