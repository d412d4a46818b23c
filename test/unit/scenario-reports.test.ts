import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { jsonReport, junitReport, type RunReport } from "../../src/scenarios/index.js";

describe("scenario files: reports", () => {
  const report: RunReport = {
    startedAt: "2026-01-01T12:00:00.000Z",
    durationMs: 2500,
    files: [
      {
        file: "ok.yaml",
        name: "passes",
        passed: true,
        total: 1,
        durationMs: 1000,
        steps: [{ index: 0, kind: "advance", passed: true, message: "clock at …" }],
      },
      {
        file: "bad.yaml",
        name: 'fails <twice> & "errs"',
        passed: false,
        total: 4,
        durationMs: 1500,
        steps: [
          {
            index: 0,
            kind: "expect",
            passed: false,
            message: "no matching message.read event",
            expectation: true,
            details: ["expected: a", "seen: b \u0007"],
          },
          { index: 1, kind: "http", passed: false, message: "GET /x: 500", expectation: true, details: [] },
          { index: 2, kind: "send", passed: false, message: "400 invalid_request: to: required", details: [] },
        ],
        account: { name: "run-x", api_key: "sk_test_x", kept: true },
      },
    ],
    notRun: [{ file: "later.yaml", name: "later" }],
  };

  it("--json: counts of files, each file's steps with index, kind, passed and message", () => {
    expect(jsonReport(report)).toEqual({
      passed: 1,
      failed: 1,
      skipped: 1,
      files: [
        {
          file: "ok.yaml",
          name: "passes",
          passed: true,
          steps: [{ index: 0, kind: "advance", passed: true, message: "clock at …" }],
        },
        {
          file: "bad.yaml",
          name: 'fails <twice> & "errs"',
          passed: false,
          account: "run-x",
          steps: [
            {
              index: 0,
              kind: "expect",
              passed: false,
              message: "no matching message.read event",
              details: ["expected: a", "seen: b \u0007"],
            },
            { index: 1, kind: "http", passed: false, message: "GET /x: 500" },
            { index: 2, kind: "send", passed: false, message: "400 invalid_request: to: required" },
          ],
        },
      ],
    });
  });

  const xsd = readFileSync(resolve(import.meta.dirname, "../fixtures/junit.xsd"), "utf8");
  const valid = async (xml: string) => {
    const result = await validateXML({ xml: [{ fileName: "report.xml", contents: xml }], schema: [xsd] });
    return result.errors.map((error) => error.rawMessage);
  };

  it("JUnit: one test case per file, one failure per unmet expectation, an error per step not done, skipped files; a JUnit schema accepts it", async () => {
    // The schema does refuse: a suite without its counts.
    expect(await valid('<testsuites><testsuite name="x"/></testsuites>')).not.toEqual([]);
    const xml = junitReport(report);
    expect(await valid(xml)).toEqual([]);
    expect(xml).toContain('<testsuites name="msgctl run" tests="3" failures="1" errors="0" skipped="1" time="2.500">');
    expect(xml).toContain(
      '<testcase name="fails &lt;twice&gt; &amp; &quot;errs&quot;" classname="bad.yaml" time="1.500">',
    );
    expect(xml.match(/<failure /g)).toHaveLength(2);
    expect(xml).toContain(
      '<failure message="steps[0] expect: no matching message.read event" type="expectation">expected: a\nseen: b \ufffd</failure>',
    );
    expect(xml).toContain('<error message="steps[2] send: 400 invalid_request: to: required" type="step"/>');
    expect(xml).toContain('<skipped message="not run: --bail stopped the run at an earlier failure"/>');
  });

  it("JUnit for files that failed their checks: an error per file listing its problems, still valid", async () => {
    const xml = junitReport(undefined, [
      { file: "a.yaml", path: "steps[0].send.to", message: "required", line: 3, column: 5 },
      { file: "a.yaml", path: "steps[1]", message: "needs a step kind", line: 4, column: 5 },
    ]);
    expect(await valid(xml)).toEqual([]);
    expect(xml).toContain(
      '<error message="invalid scenario file: 2 problem(s)" type="invalid_scenario">a.yaml:3:5: steps[0].send.to: required\na.yaml:4:5: steps[1]: needs a step kind</error>',
    );
  });
});
