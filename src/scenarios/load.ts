import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { isNode, LineCounter, parseDocument } from "yaml";
import type { Scenario, ScenarioProblem } from "./types.js";
import { pathText, validateScenario } from "./validate.js";

/** A file that could not be read at all (missing, a folder): the caller's mistake, not the file's. */
export class UnreadableScenario extends Error {
  override readonly name = "UnreadableScenario";
}

/**
 * Reads one scenario file (YAML, or JSON, which is YAML too) and checks it: the scenario, or every
 * problem found, each with the step and field it is in and, where the text shows it, the line.
 */
export async function loadScenario(file: string): Promise<{ scenario?: Scenario; problems: ScenarioProblem[] }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UnreadableScenario(
      code === "ENOENT"
        ? `${file}: no such file`
        : code === "EISDIR"
          ? `${file}: is a folder, not a scenario file`
          : `${file}: cannot be read (${(error as Error).message})`,
    );
  }
  return parseScenario(text, file);
}

/** Checks a scenario's text, as `loadScenario` does once the file is read. */
export function parseScenario(text: string, file: string): { scenario?: Scenario; problems: ScenarioProblem[] } {
  const lines = new LineCounter();
  // uniqueKeys: a key given twice is an error, never a silent last-one-wins.
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    return {
      problems: doc.errors.map((error) => {
        const at = lines.linePos(error.pos[0]);
        return {
          file,
          path: "",
          message: `not valid YAML or JSON: ${error.message.split("\n")[0]}`,
          line: at.line,
          column: at.col,
        };
      }),
    };
  }
  const checked = validateScenario(doc.toJS({ maxAliasCount: 100 }));
  if (!checked.ok) {
    const problems = checked.findings.map((finding) => {
      // The deepest node the path reaches: a missing field points at the object it is missing from.
      let node: unknown;
      for (let depth = finding.path.length; depth >= 0 && !isNode(node); depth--)
        node = doc.getIn(finding.path.slice(0, depth), true);
      const offset = isNode(node) ? node.range?.[0] : undefined;
      const at = offset === undefined ? undefined : lines.linePos(offset);
      return { file, path: pathText(finding.path), message: finding.message, line: at?.line, column: at?.col };
    });
    // In the order of the text, as an editor lists them.
    return { problems: problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0)) };
  }
  return {
    scenario: {
      file,
      name: checked.name ?? basename(file),
      restore: checked.restore,
      steps: checked.steps,
    },
    problems: [],
  };
}

/** A problem in one line: `file:line:column: steps[2].send.to: required`. */
export function problemText(problem: ScenarioProblem): string {
  const where = problem.line === undefined ? problem.file : `${problem.file}:${problem.line}:${problem.column}`;
  return `${where}: ${problem.path ? `${problem.path}: ` : ""}${problem.message}`;
}
