import { create } from "xmlbuilder2";
import { problemText } from "./load.js";
import type { FileResult, RunReport, ScenarioProblem, StepResult } from "./types.js";

/** The `--json` report: counts of files, then each file's steps. */
export interface JsonReport {
  passed: number;
  failed: number;
  /** Files that --bail left unrun. */
  skipped: number;
  files: {
    file: string;
    name: string;
    passed: boolean;
    steps: { index: number; kind: string; passed: boolean; message: string; details?: string[] }[];
    error?: string;
    account?: string;
  }[];
}

/** The report `msgctl run --json` prints. */
export function jsonReport(report: RunReport): JsonReport {
  return {
    passed: report.files.filter((file) => file.passed).length,
    failed: report.files.filter((file) => !file.passed).length,
    skipped: report.notRun.length,
    files: report.files.map((file) => ({
      file: file.file,
      name: file.name,
      passed: file.passed,
      steps: file.steps.map(({ index, kind, passed, message, details }) => ({
        index,
        kind,
        passed,
        message,
        ...(!passed && details && details.length > 0 ? { details } : {}),
      })),
      ...(file.error === undefined ? {} : { error: file.error }),
      ...(file.account?.kept ? { account: file.account.name } : {}),
    })),
  };
}

// XML 1.0 has no place for most control characters; an app's answer could hold any.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to take out.
const clean = (text: string) => text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\ufffd");
const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** A step's label in reports: `steps[2] expect`. */
export const stepLabel = (step: Pick<StepResult, "index" | "kind">) => `steps[${step.index}] ${step.kind}`;

interface Case {
  name: string;
  file: string;
  ms: number;
  failures: { message: string; text: string }[];
  errors: { type: string; message: string; text: string }[];
  skipped?: string;
  out?: string;
}

function caseOf(file: FileResult): Case {
  const failed = file.steps.filter((step) => !step.passed);
  return {
    name: file.name,
    file: file.file,
    ms: file.durationMs,
    failures: failed
      .filter((step) => step.expectation)
      .map((step) => ({ message: `${stepLabel(step)}: ${step.message}`, text: (step.details ?? []).join("\n") })),
    errors: [
      ...(file.error ? [{ type: "setup", message: file.error, text: "" }] : []),
      ...failed
        .filter((step) => !step.expectation)
        .map((step) => ({
          type: "step",
          message: `${stepLabel(step)}: ${step.message}`,
          text: (step.details ?? []).join("\n"),
        })),
    ],
    out: file.steps.map((step) => `${step.passed ? "ok  " : "FAIL"} ${stepLabel(step)}: ${step.message}`).join("\n"),
  };
}

/**
 * The JUnit XML report: one test case per scenario file (its `name`, the file as `classname`),
 * one `failure` per unmet expectation, an `error` for a step that could not be done or a file
 * that could not start, `skipped` for files --bail left unrun, and each step's line in
 * `system-out`. Files that failed their checks (`invalid`) are test cases with an error each.
 */
export function junitReport(report: RunReport | undefined, invalid: ScenarioProblem[] = []): string {
  const cases: Case[] = [
    ...(report?.files ?? []).map(caseOf),
    ...(report?.notRun ?? []).map(({ file, name }) => ({
      name,
      file,
      ms: 0,
      failures: [],
      errors: [],
      skipped: "not run: --bail stopped the run at an earlier failure",
    })),
  ];
  for (const file of new Set(invalid.map((problem) => problem.file))) {
    const problems = invalid.filter((problem) => problem.file === file);
    cases.push({
      name: file,
      file,
      ms: 0,
      failures: [],
      errors: [
        {
          type: "invalid_scenario",
          message: `invalid scenario file: ${problems.length} problem(s)`,
          text: problems.map(problemText).join("\n"),
        },
      ],
    });
  }
  const counts = {
    tests: String(cases.length),
    failures: String(cases.filter((c) => c.failures.length > 0).length),
    errors: String(cases.filter((c) => c.failures.length === 0 && c.errors.length > 0).length),
    skipped: String(cases.filter((c) => c.skipped).length),
    time: seconds(report?.durationMs ?? 0),
  };
  const root = create({ version: "1.0", encoding: "UTF-8" }).ele("testsuites", { name: "msgctl run", ...counts });
  const suite = root.ele("testsuite", {
    name: "msgctl scenarios",
    ...counts,
    timestamp: (report?.startedAt ?? new Date().toISOString()).replace(/\.\d+Z$/, ""),
  });
  for (const c of cases) {
    const testcase = suite.ele("testcase", { name: clean(c.name), classname: clean(c.file), time: seconds(c.ms) });
    if (c.skipped) testcase.ele("skipped", { message: c.skipped });
    for (const failure of c.failures)
      testcase.ele("failure", { message: clean(failure.message), type: "expectation" }).txt(clean(failure.text));
    for (const error of c.errors)
      testcase.ele("error", { message: clean(error.message), type: error.type }).txt(clean(error.text));
    if (c.out) testcase.ele("system-out").txt(clean(c.out));
  }
  return `${root.end({ prettyPrint: true })}\n`;
}
