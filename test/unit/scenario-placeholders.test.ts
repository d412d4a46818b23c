import { describe, expect, it } from "vitest";
import { fillTemplates, subsetMismatches } from "../../src/scenarios/index.js";

describe("scenario files: placeholders and JSON subsets", () => {
  const values = new Map<string, unknown>([
    ["numbers", ["+14155550101"]],
    ["msg", { id: "m1", attempts: 2, to: { handle: "+1" } }],
  ]);

  it("a string that is one placeholder takes the value as it is; inside text it is written in", () => {
    expect(fillTemplates({ a: "{{msg.attempts}}", b: "n={{msg.attempts}}", c: ["{{ numbers.0 }}"] }, values)).toEqual({
      a: 2,
      b: "n=2",
      c: ["+14155550101"],
    });
    expect(fillTemplates("to {{msg.to}}", values)).toBe('to {"handle":"+1"}');
  });

  it("a path that is not there names what is", () => {
    expect(() => fillTemplates("{{msg.idd}}", values)).toThrow(
      "{{msg.idd}}: msg has no idd (it has: id, attempts, to)",
    );
  });

  it("a subset holds when every field given is equal, recursively; arrays item by item, same length", () => {
    const actual = {
      a: 1,
      b: { c: "x", d: [1, 2] },
      e: [
        { n: 1, s: 500 },
        { n: 2, s: 200 },
      ],
    };
    expect(subsetMismatches({ b: { c: "x" } }, actual)).toEqual([]);
    expect(subsetMismatches({ e: [{ s: 500 }, { s: 200 }] }, actual)).toEqual([]);
    expect(subsetMismatches({ e: [{ s: 500 }] }, actual)).toEqual([
      { path: "e", expected: [{ s: 500 }], seen: actual.e },
    ]);
    expect(subsetMismatches({ b: { c: "y" }, z: 1 }, actual)).toEqual([
      { path: "b.c", expected: "y", seen: "x" },
      { path: "z", expected: 1, seen: undefined },
    ]);
    expect(subsetMismatches({ a: "1" }, actual)).toEqual([{ path: "a", expected: "1", seen: 1 }]);
  });
});
