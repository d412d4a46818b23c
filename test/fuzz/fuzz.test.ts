import { describe, expect, it } from "vitest";
import { runFuzz, SMALL_HEAP } from "./harness.js";

// A short seeded run on every `npm test`; `npm run fuzz` runs 3,000 requests on three seeds.
// FUZZ_SEED / FUZZ_REQUESTS change it here (the same seed always sends the same requests).
const seed = Number(process.env.FUZZ_SEED ?? 1);
const requests = Number(process.env.FUZZ_REQUESTS ?? 300);

describe("seeded fuzzing of both hosts and the control API (spec section 7, docs/spec-decisions.md)", () => {
  it(`seed ${seed}, ${requests} hostile requests: no 5xx, every answer in the spec's shape, the server alive, memory bounded`, async () => {
    const report = await runFuzz({ seed, requests, nodeFlags: SMALL_HEAP });
    const findings = report.failures.map((f) => `#${f.index}: ${f.problem}\n    ${f.request}`).join("\n");
    expect(findings, `reproduce with: npm run fuzz -- --seeds ${seed} --requests ${report.requests}`).toBe("");
    expect(report.requests).toBe(requests);
    expect(report.alive).toBe(true);
    expect(report.rssGrowthMb).toBeLessThan(50);
  }, 120_000);
});
