import { fixtureSchema, type Fixture } from "../../contract/fixture.js";
import { AppError } from "../../lib/app-error.js";
import { plainIssues } from "../../lib/validation.js";

export type { Fixture } from "../../contract/fixture.js";

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, part) => (typeof part === "number" ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)),
    "",
  );
}

/**
 * Validates a parsed fixture against the fixture schema. On error throws invalid_request whose
 * message names the file, the field and the problem, e.g.
 * `fixtures/x.json: accounts[0].numbers[1].handle: "+1555…" is not a valid phone number`.
 */
export function parseFixture(input: unknown, source: string): Fixture {
  const result = fixtureSchema.safeParse(input, { error: plainIssues });
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) => `${source}: ${formatPath(issue.path) || "(top level)"}: ${issue.message}`,
  );
  throw new AppError("invalid_request", 400, problems.join("\n"));
}

/** Parses fixture text (JSON) from a named source. */
export function parseFixtureText(text: string, source: string): Fixture {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AppError("invalid_request", 400, `${source}: not valid JSON (${(error as Error).message})`);
  }
  return parseFixture(json, source);
}
