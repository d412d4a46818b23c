import type { ScenarioStep } from "../../contract/scenario-file.js";
import { parseDuration } from "../../lib/duration.js";
import { describeMismatch, subsetMismatches } from "../json-subset.js";
import { brief, done, StepFailed, type Outcome, type StepContext } from "./context.js";

type HttpBody = Extract<ScenarioStep, { kind: "http" }>["body"];

/** What an `http` step saves: the answer's status, headers and body (parsed when it is JSON). */
export interface HttpResult {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * `http`: a request to the user's own app. A request that gets no answer stops the file; an
 * answer whose status or JSON is not the expected one is an unmet expectation.
 */
export async function httpStep(body: HttpBody, { fetch }: StepContext): Promise<Outcome> {
  const headers: Record<string, string> = { ...body.headers };
  let payload: string | undefined = body.body;
  if (body.json !== undefined) {
    payload = JSON.stringify(body.json);
    headers["content-type"] ??= "application/json";
  }
  const method = body.method ?? "GET";
  let response: Response;
  try {
    response = await fetch(body.url, {
      method,
      headers,
      body: payload,
      redirect: "manual",
      signal: AbortSignal.timeout(parseDuration(body.timeout ?? "10s")),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why =
      (error as Error).name === "TimeoutError"
        ? `no answer within ${body.timeout ?? "10s"}`
        : (cause?.code ?? cause?.message ?? (error as Error).message);
    throw new StepFailed(`${method} ${body.url} got no answer: ${why}`);
  }
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === "" ? null : JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  const result: HttpResult = { status: response.status, headers: Object.fromEntries(response.headers), body: parsed };
  const problems: string[] = [];
  if (body.expect_status !== undefined && response.status !== body.expect_status)
    problems.push(`status: expected ${body.expect_status}, seen ${response.status}`);
  if (body.expect_json !== undefined)
    problems.push(...subsetMismatches(body.expect_json, parsed).map((m) => `body ${describeMismatch(m)}`));
  const line = `${method} ${body.url}: ${response.status}`;
  if (problems.length === 0) return done(line, result);
  return {
    passed: false,
    message: `${line}, ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}`,
    details: [
      `expected: ${[
        body.expect_status === undefined ? undefined : `status ${body.expect_status}`,
        body.expect_json === undefined ? undefined : `a body containing ${brief(body.expect_json)}`,
      ]
        .filter(Boolean)
        .join(", ")}`,
      `seen:     status ${response.status}, body ${brief(parsed, 400)}`,
      ...problems.map((problem) => `  ${problem}`),
    ],
    result,
  };
}
