import { describe, expect, it } from "vitest";
import { parseChaosFlag, seedOf } from "../../src/cli/chaos-seed.js";

describe("serve --chaos SEED[:PROFILE]", () => {
  it("a seed alone takes the mild profile; after the last colon comes the profile", () => {
    expect(parseChaosFlag("42")).toEqual({ seed: 42, profile: "mild" });
    expect(parseChaosFlag("42:rough")).toEqual({ seed: 42, profile: "rough" });
    expect(parseChaosFlag("ci-run-7:mild")).toEqual({ seed: "ci-run-7", profile: "mild" });
    expect(parseChaosFlag("build:1234:rough")).toEqual({ seed: "build:1234", profile: "rough" });
  });

  it("a profile that is not mild or rough, an empty seed, or a seed over 200 characters is a usage error", () => {
    expect(() => parseChaosFlag("42:wild")).toThrow(/--chaos: unknown profile "wild" \(mild or rough\)/);
    expect(() => parseChaosFlag("build:1234")).toThrow(/unknown profile "1234".*build:1234:mild/);
    expect(() => parseChaosFlag(":rough")).toThrow(/--chaos: the seed is empty/);
    expect(() => parseChaosFlag("")).toThrow(/--chaos: the seed is empty/);
    expect(() => parseChaosFlag(`${"s".repeat(201)}:mild`)).toThrow(/201 characters long; at most 200/);
    expect(parseChaosFlag(`${"s".repeat(200)}:mild`).seed).toHaveLength(200);
  });
});

describe("a seed typed on the command line", () => {
  it("is a number when written plainly as a whole number, else text (the same seed either way)", () => {
    expect(seedOf("42")).toBe(42);
    expect(seedOf("-7")).toBe(-7);
    expect(seedOf("007")).toBe("007");
    expect(seedOf("4.0")).toBe("4.0");
    expect(seedOf("1e3")).toBe("1e3");
    expect(seedOf("99999999999999999999")).toBe("99999999999999999999");
    expect(seedOf("ci-run-7")).toBe("ci-run-7");
  });
});
