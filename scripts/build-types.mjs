// The package's declarations as one file, dist/index.d.ts, that imports nothing: a project that
// installs msgctl compiles against it with `skipLibCheck: false` and needs none of the packages the
// bundle carries (zod, kysely, h3…). Three steps:
//   1. tsc writes the declarations of src/index.ts and what it reaches into dist/.types;
//   2. the wire types (src/contract/types.ts), which the sources derive from zod schemas, are
//      written out as the plain object types they stand for, so a user's editor shows
//      `{ limit?: number; webhookId?: string; … }` instead of `z.input<typeof …>`;
//   3. dts-bundle-generator joins what the entry reaches into one file.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(import.meta.dirname, "..");
const TEMP = join(ROOT, "dist/.types");
const OUT = join(ROOT, "dist/index.d.ts");
const require = createRequire(import.meta.url);

/** The exports of src/contract/types.ts as declarations that reference no zod type. */
function plainContractTypes() {
  const file = join(ROOT, "src/contract/types.ts");
  const { options } = ts.parseJsonConfigFileContent(
    ts.readConfigFile(join(ROOT, "tsconfig.json"), ts.sys.readFile).config,
    ts.sys,
    ROOT,
  );
  const program = ts.createProgram([file], { ...options, noEmit: true });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file));
  const printer = ts.createPrinter({ removeComments: false });
  const flags =
    ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.InTypeAlias | ts.NodeBuilderFlags.MultilineObjectLiterals;
  const print = (type, where) => {
    const node = checker.typeToTypeNode(type, undefined, flags);
    if (!node) throw new Error(`build-types: cannot write out the type of ${where}`);
    return printer.printNode(ts.EmitHint.Unspecified, node, where.getSourceFile());
  };
  const docOf = (node) => {
    const text = node.getSourceFile().getFullText();
    const comments = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
    return comments.map((range) => `${text.slice(range.pos, range.end)}\n`).join("");
  };
  const usesZod = (node) => /\bz\./.test(node.getText());
  const out = [];
  for (const exported of checker.getExportsOfModule(module)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = symbol.declarations?.[0];
    if (!declaration) continue;
    const name = exported.name;
    const generic = Boolean(declaration.typeParameters?.length);
    if (!usesZod(declaration) && (generic || ts.isInterfaceDeclaration(declaration))) {
      // Plain TypeScript already: as written (it may name only other exports of this file).
      out.push(`${docOf(declaration)}${declaration.getText()}`);
    } else if (generic) {
      throw new Error(`build-types: ${name} is generic and derived from zod; make it index a plain map type instead`);
    } else if (ts.isInterfaceDeclaration(declaration)) {
      const type = checker.getDeclaredTypeOfSymbol(symbol);
      const members = checker.getPropertiesOfType(type).map((property) => {
        const optional = property.flags & ts.SymbolFlags.Optional ? "?" : "";
        const propertyType = checker.getTypeOfSymbolAtLocation(property, declaration);
        return `  ${JSON.stringify(property.name)}${optional}: ${print(propertyType, declaration)};`;
      });
      out.push(`${docOf(declaration)}export interface ${name} {\n${members.join("\n")}\n}`);
    } else {
      const type = checker.getDeclaredTypeOfSymbol(symbol);
      out.push(`${docOf(declaration)}export type ${name} = ${print(type, declaration)};`);
    }
  }
  return `${out.join("\n\n")}\n`;
}

/** Bare module specifiers a declaration file still imports (it should import none). */
function importsOf(text) {
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*|types=)["']([^"'.][^"']*)["']/g)].map(
    (match) => match[1],
  );
}

rmSync(TEMP, { recursive: true, force: true });
execFileSync(
  process.execPath,
  [require.resolve("typescript/bin/tsc"), "-p", join(ROOT, "tsconfig.build.json"), "--declarationDir", TEMP],
  { cwd: ROOT, stdio: "inherit" },
);
writeFileSync(join(TEMP, "contract/types.d.ts"), plainContractTypes());

const { generateDtsBundle } = require("dts-bundle-generator");
const [bundle] = generateDtsBundle(
  [
    {
      filePath: join(TEMP, "index.d.ts"),
      libraries: { allowedTypesLibraries: [] },
      output: { noBanner: true, exportReferencedTypes: false },
    },
  ],
  { preferredConfigPath: join(ROOT, "tsconfig.build.json") },
);
const imports = importsOf(bundle);
if (imports.length > 0) {
  throw new Error(`build-types: dist/index.d.ts would import ${[...new Set(imports)].join(", ")}`);
}
writeFileSync(OUT, bundle);
rmSync(TEMP, { recursive: true, force: true });
rmSync(join(ROOT, "dist/types"), { recursive: true, force: true });
console.log(`dist/index.d.ts (${(readFileSync(OUT).length / 1024).toFixed(0)} kB)`);
