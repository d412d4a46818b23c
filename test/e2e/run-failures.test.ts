import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { useServe } from "../helpers/cli.js";
import { JUNIT_XSD, scenarioFile, useApp, runDir } from "../helpers/scenario-run.js";

describe("msgctl run against `msgctl serve --clock manual`", { timeout: 120_000 }, () => {
  const sandbox = useServe();
  const app = useApp();

  it("an unmet expectation: exit 1, the report names the step, what was expected and what was seen; the file goes on", async () => {
    const path = scenarioFile(
      "fails.yaml",
      `name: read receipts off
steps:
  - send: { to: "+14155550172", from: "{{numbers.0}}", text: "hello" }
    save: msg
  - advance: 10s
  - expect: { event: message.read, match: { message_id: "{{msg.id}}" } }
  - expect: { message: "{{msg.id}}", status: read }
  - expect: { message: "{{msg.id}}", status: delivered }
  - http: { url: "${app.url}/api/nothing", expect_status: 200 }
`,
    );
    const junit = join(runDir, "reports", "junit.xml");
    const result = await sandbox.cli("run", path, "--junit", junit);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^FAIL {2}read receipts off/m);
    expect(result.stdout).toContain("steps[2] expect: no matching message.read event");
    expect(result.stdout).toContain('expected: a message.read event whose payload contains {"message_id":"');
    // What was seen: the file's latest events, the message's history.
    expect(result.stdout).toMatch(/seen:[\s\S]*message\.delivered at /);
    expect(result.stdout).toMatch(/steps\[3\] expect: message \S+ is delivered/);
    expect(result.stdout).toMatch(/its history:\n\s+\S+ message\.sent\n\s+\S+ message\.delivered/);
    expect(result.stdout).toMatch(
      /steps\[5\] http: GET http:\/\/127\.0\.0\.1:\d+\/api\/nothing: 404, status: expected 200, seen 404/,
    );
    expect(result.stdout).not.toContain("steps[4]");
    expect(result.stdout).toMatch(/its account run-read-receipts-off-\w+ is kept for a look \(api key sk_test_/);
    expect(result.stdout).toMatch(/^0 passed, 1 failed/m);

    const xml = readFileSync(junit, "utf8");
    const checked = await validateXML({ xml: [{ fileName: "junit.xml", contents: xml }], schema: [JUNIT_XSD] });
    expect(checked.errors).toEqual([]);
    expect(xml.match(/<failure /g)).toHaveLength(3);
    expect(xml).toContain('<testcase name="read receipts off"');
  });

  it("--bail stops at the first unmet expectation: no later step or file runs", async () => {
    const first = scenarioFile("bail-1.yaml", "steps:\n  - expect: { event: message.read }\n  - advance: 1s\n");
    const second = scenarioFile("bail-2.yaml", "steps:\n  - advance: 1s\n");
    const result = await sandbox.cli("run", first, second, "--bail", "--json");
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ passed: 0, failed: 1, skipped: 1 });
    expect(report.files).toHaveLength(1);
    expect(report.files[0].steps).toEqual([
      expect.objectContaining({ index: 0, kind: "expect", passed: false, message: "no matching message.read event" }),
    ]);
  });

  it("a step that cannot be done stops its file, with the API's refusal", async () => {
    const path = scenarioFile(
      "refused.yaml",
      'steps:\n  - send: { to: "+15555550100", from: "{{numbers.0}}", text: "x" }\n  - advance: 1s\n',
    );
    const result = await sandbox.cli("run", path, "--json");
    expect(result.code).toBe(1);
    const steps = JSON.parse(result.stdout).files[0].steps;
    expect(steps).toEqual([{ index: 0, kind: "send", passed: false, message: expect.stringMatching(/^400 \w+: /) }]);
  });

  it("bad files run nothing: exit 1, invalid_scenario, each problem with file, line, step and field", async () => {
    const good = scenarioFile("good.yaml", "steps:\n  - advance: 1s\n");
    const bad = scenarioFile("bad.yaml", 'steps:\n  - send: { to: 5 }\n  - expect: { event: "message.nope" }\n');
    const junit = join(runDir, "invalid.xml");
    const human = await sandbox.cli("run", good, bad, "--junit", junit);
    expect(human.code).toBe(1);
    expect(human.stdout).toBe("");
    expect(human.stderr).toContain(`${bad}:2:17: steps[0].send.to: must be a string, not a number`);
    expect(human.stderr).toContain(`${bad}:3:22: steps[1].expect.event: must be one of "message.received"`);
    const checked = await validateXML({
      xml: [{ fileName: "invalid.xml", contents: readFileSync(junit, "utf8") }],
      schema: [JUNIT_XSD],
    });
    expect(checked.errors).toEqual([]);

    const json = await sandbox.cli("run", good, bad, "--json");
    expect(json.code).toBe(1);
    const error = JSON.parse(json.stdout);
    expect(error).toMatchObject({ error: "invalid_scenario" });
    expect(error.problems).toEqual([
      { file: bad, path: "steps[0].send.to", message: "must be a string, not a number", line: 2, column: 17 },
      expect.objectContaining({ file: bad, path: "steps[1].expect.event", line: 3, column: 22 }),
    ]);
  });

  it("a missing file is a usage error (exit 2); so is run with no file", async () => {
    const missing = await sandbox.cli("run", join(runDir, "nope.yaml"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("nope.yaml: no such file");
    expect((await sandbox.cli("run")).code).toBe(2);
  });
});
