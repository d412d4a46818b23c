import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { openApiDocumentOf } from "../../src/runtime/openapi.js";

/**
 * Both OpenAPI documents pass Redocly's linter with its recommended rules (redocly.yaml): no error,
 * no warning. Code generators then meet no surprise: every tag described, every operation with an
 * identifier for an id and a 4XX answer, a license.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const REDOCLY = join(ROOT, "node_modules/.bin/redocly");

describe("redocly lint, recommended rules", () => {
  it.each(["messaging", "otp"] as const)("the %s document: 0 errors, 0 warnings", async (host) => {
    const file = join(mkdtempSync(join(tmpdir(), "msgctl-lint-")), `${host}.json`);
    writeFileSync(file, JSON.stringify(await openApiDocumentOf(host)));
    const { stdout } = await promisify(execFile)(
      REDOCLY,
      ["lint", file, "--config", join(ROOT, "redocly.yaml"), "--format", "json"],
      // Offline: no telemetry and no update check (tests talk to 127.0.0.1 only).
      { env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" } },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    const problems = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
