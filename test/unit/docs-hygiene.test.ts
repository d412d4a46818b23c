import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * What a user reads stands on its own: the pages link only to files and headings that exist, and
 * nothing shipped or read beside the code (pages, comments, help, messages, test names) points to
 * a document users do not have or to an issue of the tracker; it states the rule itself.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const THIS_FILE = relative(ROOT, import.meta.filename);

/** Files under `dir` (relative to the root) whose names end with one of `endings`. */
function filesUnder(dir: string, endings: string[]): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(join(ROOT, at), { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (endings.some((ending) => entry.name.endsWith(ending))) found.push(path);
    }
  };
  walk(dir);
  return found;
}

const PAGES = ["README.md", ...filesUnder("docs", [".md"]), "bench/README.md"];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/_/g, "")
    .replace(/ /g, "-");

const withoutCode = (text: string) => text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "``");

function anchorsOf(page: string): Set<string> {
  const text = readFileSync(join(ROOT, page), "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#+ (.*)$/gm)].map((match) => anchorOf(match[1] ?? "")));
}

describe("the pages' links", () => {
  it.each(PAGES)("%s links only to files and headings that exist", (page) => {
    const text = readFileSync(join(ROOT, page), "utf8").replace(/```[\s\S]*?```/g, "");
    const broken: string[] = [];
    for (const [, link = ""] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(link)) continue;
      const [path = "", anchor] = link.split("#");
      const target = path === "" ? page : relative(ROOT, resolve(ROOT, dirname(page), path));
      if (!existsSync(join(ROOT, target))) broken.push(`${link} (no ${target})`);
      else if (anchor && target.endsWith(".md") && !anchorsOf(target).has(anchor)) broken.push(`${link} (no heading)`);
    }
    expect(broken).toEqual([]);
  });
});

describe("no page, comment, help text or message cites SANDBOX.md or an issue", () => {
  const READ = [
    ...PAGES,
    ".ci/run",
    ...filesUnder("src", [".ts", ".tsx"]),
    ...filesUnder("test", [".ts"]).filter((path) => path !== THIS_FILE),
    ...filesUnder("scripts", [".mjs", ".ts", ".cjs"]),
    ...filesUnder("bench", [".mjs"]),
  ];
  const CITATIONS = [/SANDBOX\.md/, /\bissue #?\d+/i, /\bthe [a-z-]+ issue\b/i];

  it("in any of them", () => {
    const found = READ.flatMap((path) =>
      // Code in a page may quote anything; in source files every line counts, template strings too.
      (path.endsWith(".md") ? withoutCode : (text: string) => text)(readFileSync(join(ROOT, path), "utf8"))
        .split("\n")
        .flatMap((line, at) =>
          CITATIONS.some((citation) => citation.test(line)) ? [`${path}:${at + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });
});
